"""What the server and its clients share: the protocol, table links, and what one seat may
receive of a record. Pure Python.
"""
