"""Out of training: model packages (package), ONNX graphs (onnx), the parity fixtures of
tests/data/parity (parity) and our PyTorch MarianMT (marian)."""
