"""Front ends: the `regent` command and clients of the service."""
