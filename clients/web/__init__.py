"""The tabletop hint page, a client of the service: an HTTP/JSON gateway to the
AdvisorService for the browser, and the page's static files."""
