"""What a refused gRPC call says: the fields of the google.rpc.BadRequest it carries."""

from __future__ import annotations

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status


def field_violations(err: grpc.RpcError) -> list[error_details_pb2.BadRequest.FieldViolation]:
    """The google.rpc.BadRequest field violations an error carries."""
    status = rpc_status.from_call(err)
    if status is None:
        return []
    assert status.code == err.code().value[0], "the status details disagree with the code"
    found = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            found.extend(bad.field_violations)
    return found


def violated_fields(err: grpc.RpcError) -> list[str]:
    """The fields an error's BadRequest names, in its order."""
    return [v.field for v in field_violations(err)]
