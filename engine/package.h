// ModelPackage: a model folder (docs/model-package.md) parsed and validated at the file level —
// model.json, the safetensors weights and the SentencePiece tokenizers — before any plugin sees
// it. Plugins then check their own tensors through requireTensors()/weight(), so that every
// weight is known to be present, correctly shaped and finite before it is used.
//
// Basic usage:
//     const ModelPackage package = ModelPackage::load("resources/models/transformer-en-es");
//     const int d = package.hyperparameter<int>("d_model");
//     package.requireTensors({{"embedding.weight", {vocab, d}}, {"out.bias", {vocab}}});
//     Tensor w = package.weight("embedding.weight", {vocab, d});   // fp32, 64-byte aligned
//     std::shared_ptr<const Tokenizer> spm = package.sourceTokenizer();
//
// Every error is a PackageError naming the file (model.json, model.safetensors, spm.model) and,
// for weights, the tensor; manifest errors name the key ("model.json: "languages.target" is
// missing").
#pragma once

#include "engine/model.h"
#include "engine/packageerror.h"
#include "engine/safetensors.h"
#include "engine/text/tokenizer.h"
#include "engine/text/truecaser.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace glosa::engine {

// A tensor a plugin needs, with its expected shape (empty shape: any shape is accepted).
struct TensorRequirement
{
    std::string name;
    Shape shape;
};

// The arithmetic a plugin builds its large linear layers with (as CTranslate2's compute_type):
// Auto takes int8 where the package's weights are int8 ("compute_type": "int8" in model.json),
// fp32 otherwise; Int8 quantizes fp32/fp16 weights at load (ops::QuantizedLinear).
enum class ComputeType { Auto, Float32, Int8 };
const char *computeTypeName(ComputeType type); // "auto", "float32", "int8"
// Throws std::invalid_argument naming the accepted values.
ComputeType parseComputeType(const std::string &name);

class ModelPackage
{
public:
    // Parses and validates `folder`; throws PackageError. `computeType` is what the caller asks
    // for; computeType() says what the plugin is to build.
    static ModelPackage load(const std::string &folder,
                             ComputeType computeType = ComputeType::Auto);

    // Float32 or Int8: the request resolved against the package (see ComputeType).
    ComputeType computeType() const { return m_computeType; }

    const std::string &folder() const { return m_folder; }
    // The whole model.json, unknown keys included.
    const nlohmann::json &manifest() const { return m_manifest; }
    std::string manifestPath() const;

    const std::string &id() const { return m_id; }
    const std::string &name() const { return m_name; }
    const std::string &version() const { return m_version; } // "" when absent
    Task task() const { return m_task; }
    const std::string &architecture() const { return m_architecture; }
    const std::string &plugin() const { return m_plugin; }
    const std::string &licence() const { return m_licence; }
    // BCP 47 codes; the source language is "" for captioning models.
    const std::string &sourceLanguage() const { return m_sourceLanguage; }
    const std::string &targetLanguage() const { return m_targetLanguage; }
    // "hyperparameters" (an object); "decoding" (an object, empty when absent).
    const nlohmann::json &hyperparameters() const;
    const nlohmann::json &decoding() const;

    // A required hyperparameter converted to T (int, std::int64_t, double, bool, std::string);
    // PackageError naming model.json and "hyperparameters.<key>" when missing or mistyped.
    template <typename T> T hyperparameter(const std::string &key) const;
    // The same with a default when the key is absent (still an error when mistyped).
    template <typename T> T hyperparameter(const std::string &key, const T &fallback) const;

    const SafeTensorsFile &weights() const { return *m_weights; }
    // fp32 copy of a tensor, checked against `expectedShape` when it is not empty.
    Tensor weight(const std::string &name, const Shape &expectedShape = {}) const;
    // A weight for an ops::Linear: as stored (a zero-copy view of the mapped file) when the file
    // stores it as F16, so that Linear can keep the fp16 copy it multiplies small batches with
    // (linear.h, "fp16 weights"); otherwise weight(name, expectedShape). Linear converts F16 to
    // fp32 itself, so the layer computes the same as with weight().
    Tensor linearWeight(const std::string &name, const Shape &expectedShape = {}) const;
    // Checks that every tensor exists with its shape (and a floating-point dtype); one
    // PackageError naming the first offending tensor and listing all the problems found.
    void requireTensors(const std::vector<TensorRequirement> &tensors) const;

    // The tokenizers named in "tokenizer"; source and target share one instance when they name
    // the same file. Captioning packages have no source tokenizer (nullptr).
    std::shared_ptr<const Tokenizer> sourceTokenizer() const { return m_sourceTokenizer; }
    std::shared_ptr<const Tokenizer> targetTokenizer() const { return m_targetTokenizer; }
    // The source side's truecase table (text/truecaser.h) named by "tokenizer.truecase", nullptr
    // when the package has none (imported OPUS-MT models, captioners).
    std::shared_ptr<const Truecaser> truecaser() const { return m_truecaser; }

    // An integer hyperparameter in [minimum, maximum] (a size: the maxima are in
    // engine/limits.h); PackageError naming the key, its value and the bound it breaks.
    std::int64_t boundedHyperparameter(const std::string &key, std::int64_t minimum,
                                       std::int64_t maximum) const;
    std::int64_t boundedHyperparameter(const std::string &key, std::int64_t minimum,
                                       std::int64_t maximum, std::int64_t fallback) const;

    // Throws PackageError naming model.json and `hyperparameters.<key>`: for the checks a plugin
    // makes beyond the type and range hyperparameter<T>() already checks.
    [[noreturn]] void hyperparameterError(const std::string &key, const std::string &message) const;
    // Throws hyperparameterError for the first special token id (pad_id, bos_id, ...) outside the
    // vocabulary [0, vocabSize).
    void requireTokenIds(std::initializer_list<std::pair<const char *, std::int64_t>> ids,
                         std::int64_t vocabSize) const;

private:
    ModelPackage() = default;
    [[noreturn]] void failManifest(const std::string &message) const;
    const nlohmann::json &hyperparameterValue(const std::string &key) const;
    [[noreturn]] void failHyperparameter(const std::string &key, const char *expected) const;

    std::string m_folder;
    nlohmann::json m_manifest;
    ComputeType m_computeType = ComputeType::Float32;
    std::string m_id, m_name, m_version, m_architecture, m_plugin, m_licence;
    std::string m_sourceLanguage, m_targetLanguage;
    Task m_task = Task::Translation;
    std::shared_ptr<const SafeTensorsFile> m_weights;
    std::shared_ptr<const Tokenizer> m_sourceTokenizer;
    std::shared_ptr<const Tokenizer> m_targetTokenizer;
    std::shared_ptr<const Truecaser> m_truecaser;
};

template <typename T> T ModelPackage::hyperparameter(const std::string &key) const
{
    const nlohmann::json &value = hyperparameterValue(key);
    if constexpr (std::is_same_v<T, bool>) {
        if (!value.is_boolean())
            failHyperparameter(key, "a boolean");
    } else if constexpr (std::is_integral_v<T>) {
        if (!value.is_number_integer())
            failHyperparameter(key, "an integer");
        // Range check: a value that does not fit T is as wrong as a string.
        if (value.is_number_unsigned() ? !std::in_range<T>(value.get<std::uint64_t>())
                                       : !std::in_range<T>(value.get<std::int64_t>()))
            failHyperparameter(key, "an integer in range");
    } else if constexpr (std::is_floating_point_v<T>) {
        if (!value.is_number())
            failHyperparameter(key, "a number");
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!value.is_string())
            failHyperparameter(key, "a string");
    } else {
        static_assert(sizeof(T) == 0, "unsupported hyperparameter type");
    }
    return value.get<T>();
}

template <typename T>
T ModelPackage::hyperparameter(const std::string &key, const T &fallback) const
{
    return hyperparameters().contains(key) ? hyperparameter<T>(key) : fallback;
}

} // namespace glosa::engine
