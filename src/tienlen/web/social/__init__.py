"""Friends and invitations."""
