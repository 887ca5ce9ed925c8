// Importing a MarianMT model in Hugging Face format (the Helsinki-NLP opus-mt-* models) into a
// Glosa package, once: the weights renamed into our Transformer's layout (int8 by default),
// the tokenizer files copied, and a model.json that records every architecture option of the
// Transformer plugin (plugins/transformer/transformerdecoder.h), the decoding defaults of its
// generation config, the languages, the licence and where it came from (docs/model-package.md,
// "Imported MarianMT models").
//
// The folder must hold config.json (model_type "marian"), model.safetensors or pytorch_model.bin
// (read by TorchCheckpoint, which runs none of the pickle), source.spm, target.spm, vocab.json
// (and target_vocab.json when tokenizer_config.json says separate_vocabs); generation_config.json,
// tokenizer_config.json and the model card README.md are read when present.
//
// Basic usage:
//     MarianImportOptions options;                     // int8, id from the folder name
//     const MarianImport done = importMarian("opus-mt-en-es", "~/.local/share/Glosa/models",
//                                            options); // throws PackageError
//     // done.folder is "<root>/opus-mt-en-es", a package ModelPackage::load reads
//
// Atomic: the package is written into a hidden staging folder of the destination root and
// renamed into place at the end; an error or a cancellation removes the staging folder, so a
// failed import leaves nothing behind. Every error is a PackageError naming the file (and the
// tensor or key) at fault.
#pragma once

#include "engine/packageerror.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace glosa::engine {

struct MarianImportOptions
{
    // Store the weight matrices as int8 codes with per-row scales (half the size of fp16, a
    // quarter of fp32; docs/model-package.md "int8 weights"); false keeps float32.
    bool int8 = true;
    // The package id (and folder name); empty: the repository's name, else the source folder's
    // name when it is a valid id other than a file-format folder or a commit, else
    // "marian-<source>-<target>".
    std::string id;
    // The Hugging Face repository the folder holds ("Helsinki-NLP/opus-mt-en-es") and its commit,
    // recorded in model.json's imported_from; empty when unknown. The repository's name is the
    // default id and the model's name.
    std::string repo, commit;
    // Languages (BCP 47); empty: tokenizer_config.json's source_lang / target_lang, else the
    // model card's "language:" list of two, else the folder name's "-xx-yy" ending.
    std::string sourceLanguage, targetLanguage;
    // Called between tensors with the fraction done (0..1); may be empty.
    std::function<void(double)> progress;
    // Polled between tensors; true cancels the import (a PackageError "cancelled" is thrown and
    // nothing is left behind). May be empty.
    std::function<bool()> cancelled;
};

struct MarianImport
{
    std::string id;
    std::string folder; // the new package
};

// Reads and checks config.json: model_type marian, sizes within engine/limits.h, the options
// the Transformer supports. Returns the plugin's "hyperparameters" (without the vocabulary
// sizes, which the tokenizer files decide). Throws PackageError naming `path`. Exposed for the
// fuzz harness tests/fuzz/fuzz_marian_config.cpp.
nlohmann::json marianHyperparameters(const nlohmann::json &config, const std::string &path);

// Reads the generation defaults (generation_config.json, or config.json's own keys) into the
// package's "decoding" object, and adds bad_words_ids' single tokens to `hyperparameters`'
// never_generate (the object marianHyperparameters returned). Throws PackageError naming `path`.
// Exposed for the fuzz harness tests/fuzz/fuzz_import_json.cpp.
nlohmann::json marianDecoding(const nlohmann::json &generation, nlohmann::json &hyperparameters,
                              const std::string &path);

// Converts `source` into `destinationRoot`/<id> (see above). Refuses when that folder exists.
MarianImport importMarian(const std::string &source, const std::string &destinationRoot,
                          const MarianImportOptions &options = {});

} // namespace glosa::engine
