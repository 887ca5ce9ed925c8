"""The corpora the general-domain models train on: the broad parallel corpus (broad), the
monolingual one for back-translation (mono, backtranslate), everyday phrases (phrases), the
tokenizer's surgery (spm_surgery) and truecase tables (truecase)."""
