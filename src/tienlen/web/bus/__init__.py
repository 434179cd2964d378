"""The processes of one room, and the bus between them (Redis): who serves each table, and how a
connection held by one process reaches a table another serves."""
