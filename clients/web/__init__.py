"""The tabletop hint page: an HTTP/JSON gateway to the AdvisorService and its static files."""
