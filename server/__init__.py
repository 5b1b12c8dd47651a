"""The gRPC service."""
