"""Language pairs and their Tatoeba splits (pairs), protected spans (spans) and the safetensors
format (safetensors)."""
