"""Checks on the C++ sources that a compiler does not make: function_lengths (no function in
app/, engine/ or plugins/ over 80 lines, with its exceptions named)."""
