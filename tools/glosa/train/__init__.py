"""Training: the shared loop (trainer) and the model families it trains (transformer, rnn,
captioner and its MobileNetV2 backbone, mobilenet); checkpoint averaging (average)."""
