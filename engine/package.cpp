#include "engine/package.h"

#include "engine/jsonfile.h"
#include "engine/regularfile.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace glosa::engine {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::uintmax_t kMaxManifestBytes = 16u << 20; // a manifest is a few KB

std::string typeName(const json &value)
{
    return value.is_number_integer() || value.is_number_float() ? "a number"
           : value.is_object()                                  ? "an object"
           : value.is_array()                                   ? "an array"
           : value.is_string()                                  ? "a string"
           : value.is_boolean()                                 ? "a boolean"
                                                                : "null";
}

// Ids become folder names when a package is imported: keep them to a portable, inert alphabet.
bool isValidId(const std::string &id)
{
    if (id.empty() || id.size() > 128 || id.front() == '.' || id.front() == '-')
        return false;
    for (char c : id)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
            return false;
    return true;
}

} // namespace

std::string ModelPackage::manifestPath() const
{
    return (fs::path(m_folder) / "model.json").string();
}

void ModelPackage::failManifest(const std::string &message) const
{
    throw PackageError(manifestPath(), {}, message);
}

const char *computeTypeName(ComputeType type)
{
    switch (type) {
    case ComputeType::Auto:
        return "auto";
    case ComputeType::Float32:
        return "float32";
    case ComputeType::Int8:
        return "int8";
    }
    return "?";
}

ComputeType parseComputeType(const std::string &name)
{
    for (ComputeType type : {ComputeType::Auto, ComputeType::Float32, ComputeType::Int8})
        if (name == computeTypeName(type))
            return type;
    throw std::invalid_argument("compute type \"" + name + "\" is not one of auto, float32, int8");
}

ModelPackage ModelPackage::load(const std::string &folder, ComputeType computeType)
{
    ModelPackage package;
    package.m_folder = folder;
    std::error_code error;
    if (!fs::is_directory(folder, error))
        throw PackageError(folder, {},
                           "not a folder (a model package is a folder with model.json)");
    const std::string manifestPath = package.manifestPath();
    RegularFile file(manifestPath);
    if (!file.ok())
        throw PackageError(manifestPath, {}, file.missing() ? "file not found" : file.error());
    std::string contents;
    if (!file.readAll(contents, kMaxManifestBytes))
        package.failManifest(file.error());
    const std::string refused = parseJsonBounded(contents, JsonBounds{}, package.m_manifest);
    if (!refused.empty())
        package.failManifest(refused);
    const json &m = package.m_manifest;
    if (!m.is_object())
        package.failManifest("the top level is " + typeName(m) + ", expected an object");

    // Helpers that name the key in every message ("languages.target").
    auto require = [&](const json &parent, const std::string &key,
                       const std::string &path) -> const json & {
        if (!parent.contains(key))
            package.failManifest("missing required key \"" + path + "\"");
        return parent[key];
    };
    auto requireString = [&](const json &parent, const std::string &key,
                             const std::string &path) -> std::string {
        const json &value = require(parent, key, path);
        if (!value.is_string())
            package.failManifest("\"" + path + "\" is " + typeName(value) + ", expected a string");
        std::string text = value.get<std::string>();
        if (text.empty())
            package.failManifest("\"" + path + "\" is empty");
        return text;
    };
    auto requireObject = [&](const json &parent, const std::string &key,
                             const std::string &path) -> const json & {
        const json &value = require(parent, key, path);
        if (!value.is_object())
            package.failManifest("\"" + path + "\" is " + typeName(value) + ", expected an object");
        return value;
    };
    // A file named by the manifest: relative, inside the folder, present.
    auto requireFile = [&](const json &parent, const std::string &key,
                           const std::string &path) -> std::string {
        const std::string name = requireString(parent, key, path);
        const fs::path relative(name);
        if (relative.is_absolute() || std::any_of(relative.begin(), relative.end(),
                                                  [](const fs::path &p) { return p == ".."; }))
            package.failManifest("\"" + path + "\" is \"" + name +
                                 "\"; files must be named relative to the package folder");
        const std::string file = (fs::path(folder) / relative).string();
        // The rule holds after symlinks too: a link to a file outside the package (or to a
        // device, which never ends) is refused, where it loaded or read as "not found".
        std::error_code linkError;
        const fs::path target = fs::canonical(file, linkError);
        if (linkError)
            throw PackageError(file, {},
                               "file not found (named by \"" + path + "\" in model.json)");
        const fs::file_status status = fs::status(target, linkError);
        if (!fs::is_regular_file(status)) {
            const std::string kind = fs::is_directory(status)        ? "a folder"
                                     : fs::is_character_file(status) ? "a character device"
                                     : fs::is_block_file(status)     ? "a block device"
                                     : fs::is_fifo(status)           ? "a FIFO (named pipe)"
                                     : fs::is_socket(status)         ? "a socket"
                                                                     : "not a regular file";
            throw PackageError(file, {},
                               "is " + kind +
                                   (target.string() != file ? " (" + target.string() + ")" : "") +
                                   ", not a file (named by \"" + path + "\" in model.json)");
        }
        const fs::path root = fs::canonical(folder, linkError);
        const auto [inRoot, inTarget] =
            std::mismatch(root.begin(), root.end(), target.begin(), target.end());
        if (linkError || inRoot != root.end())
            throw PackageError(file, {},
                               "is a link to " + target.string() +
                                   ", outside the package folder (named by \"" + path +
                                   "\" in model.json; files must lie inside the package)");
        return file;
    };

    const json &version = require(m, "format_version", "format_version");
    if (!version.is_number_integer())
        package.failManifest("\"format_version\" is " + typeName(version) + ", expected 1");
    if (version.get<std::int64_t>() != 1)
        package.failManifest("\"format_version\" is " + version.dump() +
                             "; this version of Glosa reads format 1 only");

    package.m_id = requireString(m, "id", "id");
    if (!isValidId(package.m_id))
        package.failManifest("\"id\" is \"" + package.m_id +
                             "\"; ids use letters, digits, '-', '_' and '.' only and do not start "
                             "with '.' or '-'");
    package.m_name = requireString(m, "name", "name");
    if (m.contains("version")) {
        if (!m["version"].is_string())
            package.failManifest("\"version\" is " + typeName(m["version"]) +
                                 ", expected a string");
        package.m_version = m["version"].get<std::string>();
    }
    const std::string task = requireString(m, "task", "task");
    if (const std::optional<Task> known = taskFromName(task))
        package.m_task = *known;
    else
        package.failManifest("\"task\" is \"" + task + "\", expected \"" +
                             taskName(Task::Translation) + "\" or \"" +
                             taskName(Task::Captioning) + "\"");
    const bool translation = package.m_task == Task::Translation;
    package.m_architecture = requireString(m, "architecture", "architecture");
    package.m_plugin = requireString(m, "plugin", "plugin");
    package.m_licence = requireString(m, "licence", "licence");

    const json &languages = requireObject(m, "languages", "languages");
    package.m_targetLanguage = requireString(languages, "target", "languages.target");
    if (translation)
        package.m_sourceLanguage = requireString(languages, "source", "languages.source");

    requireObject(m, "hyperparameters", "hyperparameters");
    if (m.contains("decoding") && !m["decoding"].is_object())
        package.failManifest("\"decoding\" is " + typeName(m["decoding"]) + ", expected an object");
    if (m.contains("scores") && !m["scores"].is_object())
        package.failManifest("\"scores\" is " + typeName(m["scores"]) + ", expected an object");

    const json &training = requireObject(m, "training", "training");
    const json &data = require(training, "data", "training.data");
    if (!data.is_array() || data.empty())
        package.failManifest("\"training.data\" must be a non-empty array naming the training "
                             "data with its licence and attribution");
    for (std::size_t i = 0; i < data.size(); ++i) {
        const std::string at = "training.data[" + std::to_string(i) + "]";
        if (!data[i].is_object())
            package.failManifest("\"" + at + "\" is " + typeName(data[i]) + ", expected an object");
        requireString(data[i], "licence", at + ".licence");
        requireString(data[i], "attribution", at + ".attribution");
    }

    // Files last, so that a manifest error is reported before a missing-file error.
    const json &tokenizer = requireObject(m, "tokenizer", "tokenizer");
    const std::string type = requireString(tokenizer, "type", "tokenizer.type");
    if (type != "sentencepiece")
        package.failManifest("\"tokenizer.type\" is \"" + type + "\", expected \"sentencepiece\"");
    const std::string targetModel = requireFile(tokenizer, "target", "tokenizer.target");
    const std::string sourceModel =
        translation ? requireFile(tokenizer, "source", "tokenizer.source") : std::string();
    const std::string weights = requireFile(m, "weights", "weights");

    // Optional vocabularies that number the pieces (MarianMT's vocab.json, tokenizer.h).
    const auto optionalFile = [&](const char *key) {
        return tokenizer.contains(key)
                   ? requireFile(tokenizer, key, std::string("tokenizer.") + key)
                   : std::string();
    };
    const std::string targetVocabulary = optionalFile("target_vocabulary");
    const std::string sourceVocabulary = translation ? optionalFile("source_vocabulary") : "";
    const std::string truecase = translation ? optionalFile("truecase") : "";
    const auto makeTokenizer = [](const std::string &model, const std::string &vocabulary) {
        return vocabulary.empty() ? std::make_shared<const Tokenizer>(model)
                                  : std::make_shared<const Tokenizer>(model, vocabulary);
    };
    const auto sameFile = [&](const std::string &a, const std::string &b) {
        return a.empty() ? b.empty() : !b.empty() && fs::equivalent(a, b, error);
    };

    package.m_weights = std::make_shared<const SafeTensorsFile>(weights);
    package.m_targetTokenizer = makeTokenizer(targetModel, targetVocabulary);
    if (translation)
        package.m_sourceTokenizer =
            sameFile(sourceModel, targetModel) && sameFile(sourceVocabulary, targetVocabulary)
                ? package.m_targetTokenizer
                : makeTokenizer(sourceModel, sourceVocabulary);
    if (!truecase.empty())
        package.m_truecaser = std::make_shared<const Truecaser>(Truecaser::load(truecase));
    // Packages hold fp32/fp16 weights so far ("compute_type" absent): Auto is fp32 for them.
    const auto stored = m.find("compute_type");
    const bool storedInt8 = stored != m.end() && stored->is_string() && *stored == "int8";
    package.m_computeType =
        computeType == ComputeType::Int8 || (computeType == ComputeType::Auto && storedInt8)
            ? ComputeType::Int8
            : ComputeType::Float32;
    return package;
}

const nlohmann::json &ModelPackage::hyperparameters() const
{
    return m_manifest["hyperparameters"];
}

const nlohmann::json &ModelPackage::decoding() const
{
    static const json empty = json::object();
    const auto it = m_manifest.find("decoding");
    return it == m_manifest.end() ? empty : *it;
}

const nlohmann::json &ModelPackage::hyperparameterValue(const std::string &key) const
{
    const json &h = hyperparameters();
    const auto it = h.find(key);
    if (it == h.end())
        failManifest("missing required key \"hyperparameters." + key + "\" (architecture \"" +
                     m_architecture + "\" needs it)");
    return *it;
}

void ModelPackage::failHyperparameter(const std::string &key, const char *expected) const
{
    failManifest("\"hyperparameters." + key + "\" is " + hyperparameters()[key].dump() +
                 ", expected " + expected);
}

std::int64_t ModelPackage::boundedHyperparameter(const std::string &key, std::int64_t minimum,
                                                 std::int64_t maximum) const
{
    const auto value = hyperparameter<std::int64_t>(key);
    if (value < minimum)
        hyperparameterError(key, std::to_string(value) + " must be at least " +
                                     std::to_string(minimum));
    if (value > maximum)
        hyperparameterError(key, std::to_string(value) + " is more than the limit of " +
                                     std::to_string(maximum));
    return value;
}

std::int64_t ModelPackage::boundedHyperparameter(const std::string &key, std::int64_t minimum,
                                                 std::int64_t maximum,
                                                 std::int64_t fallback) const
{
    return hyperparameters().contains(key) ? boundedHyperparameter(key, minimum, maximum)
                                           : fallback;
}

void ModelPackage::hyperparameterError(const std::string &key, const std::string &message) const
{
    throw PackageError(manifestPath(), "", "\"hyperparameters." + key + "\": " + message);
}

void ModelPackage::requireTokenIds(std::initializer_list<std::pair<const char *, std::int64_t>> ids,
                                   std::int64_t vocabSize) const
{
    for (const auto &[key, id] : ids)
        if (id < 0 || id >= vocabSize)
            hyperparameterError(key, std::to_string(id) + " is outside the vocabulary [0, " +
                                         std::to_string(vocabSize) + ")");
}

Tensor ModelPackage::weight(const std::string &name, const Shape &expectedShape) const
{
    if (m_weights->dtype(name) != DType::I8)
        return m_weights->loadFloat(name, expectedShape);
    // An int8 weight [rows, ...]: row r is codes × scale[r], the scales in "<name>.scale"
    // (F32 [rows], positive). Plugins that compute in int8 quantize this F32 copy again and get
    // the same codes back: each row's largest code is ±127 by construction, so the row's new
    // scale is its stored scale (docs/model-package.md, "int8 weights").
    const Tensor codes = m_weights->view(name);
    if (!expectedShape.empty() && codes.shape() != expectedShape)
        throw PackageError(m_weights->path(), name,
                           "shape " + shapeToString(codes.shape()) +
                               " does not match the expected " + shapeToString(expectedShape));
    if (codes.rank() < 1)
        throw PackageError(m_weights->path(), name, "an int8 weight needs at least one dimension");
    const std::string scaleName = name + ".scale";
    if (!m_weights->contains(scaleName))
        throw PackageError(m_weights->path(), name,
                           "int8 weight without its scales (tensor \"" + scaleName + "\")");
    const Tensor scales = m_weights->loadFloat(scaleName, Shape{codes.dim(0)});
    const std::int64_t rows = codes.dim(0), cols = codes.numel() / std::max<std::int64_t>(rows, 1);
    Tensor out(codes.shape(), DType::F32);
    for (std::int64_t r = 0; r < rows; ++r) {
        const float s = scales.data<float>()[r];
        if (!(s > 0.0f))
            throw PackageError(m_weights->path(), scaleName,
                               "scale " + std::to_string(s) + " of row " + std::to_string(r) +
                                   " is not positive");
        const std::int8_t *in = codes.data<std::int8_t>() + r * cols;
        float *o = out.data<float>() + r * cols;
        for (std::int64_t c = 0; c < cols; ++c)
            o[c] = static_cast<float>(in[c]) * s;
    }
    return out;
}

Tensor ModelPackage::linearWeight(const std::string &name, const Shape &expectedShape) const
{
    if (m_weights->dtype(name) != DType::F16)
        return weight(name, expectedShape);
    const Tensor stored = m_weights->view(name);
    if (!expectedShape.empty() && stored.shape() != expectedShape)
        throw PackageError(m_weights->path(), name,
                           "shape " + shapeToString(stored.shape()) +
                               " does not match the expected " + shapeToString(expectedShape));
    return stored;
}

void ModelPackage::requireTensors(const std::vector<TensorRequirement> &tensors) const
{
    std::string firstTensor;
    std::string firstProblem;
    std::vector<std::string> others;
    for (const TensorRequirement &t : tensors) {
        std::string problem;
        if (!m_weights->contains(t.name))
            problem = "not found";
        else if (!t.shape.empty() && m_weights->shape(t.name) != t.shape)
            problem = "shape " + shapeToString(m_weights->shape(t.name)) +
                      " does not match the expected " + shapeToString(t.shape);
        else if (m_weights->dtype(t.name) == DType::I32)
            problem = "dtype I32, expected F32, F16, BF16 or I8";
        else if (m_weights->dtype(t.name) == DType::I8 && !m_weights->contains(t.name + ".scale"))
            problem = "int8 weight without its scales (tensor \"" + t.name + ".scale\")";
        if (problem.empty())
            continue;
        if (firstProblem.empty()) {
            firstTensor = t.name;
            firstProblem = problem;
        } else {
            others.push_back("tensor \"" + t.name + "\": " + problem);
        }
    }
    if (firstProblem.empty())
        return;
    std::string message = firstProblem + " (architecture \"" + m_architecture + "\")";
    if (!others.empty()) {
        message += "; " + std::to_string(others.size()) + " more: ";
        for (std::size_t i = 0; i < others.size() && i < 8; ++i)
            message += (i ? "; " : "") + others[i];
        if (others.size() > 8)
            message += "; ...";
    }
    throw PackageError(m_weights->path(), firstTensor, message);
}

} // namespace glosa::engine
