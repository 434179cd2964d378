"""What turns the room into HTTP: problem responses, the body limit, the origin check."""
