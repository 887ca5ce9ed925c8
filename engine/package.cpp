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

namespace {

// model.json read and parsed within its bounds: the top level an object.
json readManifestFile(const std::string &folder, const std::string &manifestPath)
{
    std::error_code error;
    if (!fs::is_directory(folder, error))
        throw PackageError(folder, {},
                           "not a folder (a model package is a folder with model.json)");
    RegularFile file(manifestPath);
    if (!file.ok())
        throw PackageError(manifestPath, {}, file.missing() ? "file not found" : file.error());
    std::string contents;
    if (!file.readAll(contents, kMaxManifestBytes))
        throw PackageError(manifestPath, {}, file.error());
    json manifest;
    const std::string refused = parseJsonBounded(contents, JsonBounds{}, manifest);
    if (!refused.empty())
        throw PackageError(manifestPath, {}, refused);
    if (!manifest.is_object())
        throw PackageError(manifestPath, {},
                           "the top level is " + typeName(manifest) + ", expected an object");
    return manifest;
}

// The manifest's keys, each checked with a message that names it ("languages.target").
struct ManifestReader
{
    const std::string &manifestPath;
    const std::string &folder;

    [[noreturn]] void fail(const std::string &message) const
    {
        throw PackageError(manifestPath, {}, message);
    }
    const json &require(const json &parent, const std::string &key, const std::string &path) const
    {
        if (!parent.contains(key))
            fail("missing required key \"" + path + "\"");
        return parent[key];
    }
    std::string requireString(const json &parent, const std::string &key,
                              const std::string &path) const
    {
        const json &value = require(parent, key, path);
        if (!value.is_string())
            fail("\"" + path + "\" is " + typeName(value) + ", expected a string");
        std::string text = value.get<std::string>();
        if (text.empty())
            fail("\"" + path + "\" is empty");
        return text;
    }
    const json &requireObject(const json &parent, const std::string &key,
                              const std::string &path) const
    {
        const json &value = require(parent, key, path);
        if (!value.is_object())
            fail("\"" + path + "\" is " + typeName(value) + ", expected an object");
        return value;
    }
    // A file named by the manifest: relative, inside the folder, present.
    std::string requireFile(const json &parent, const std::string &key,
                            const std::string &path) const
    {
        const std::string name = requireString(parent, key, path);
        const fs::path relative(name);
        if (relative.is_absolute() || std::any_of(relative.begin(), relative.end(),
                                                  [](const fs::path &p) { return p == ".."; }))
            fail("\"" + path + "\" is \"" + name +
                 "\"; files must be named relative to the package folder");
        const std::string file = (fs::path(folder) / relative).string();
        checkRegularFileInside(file, path);
        return file;
    }
    // The rule holds after symlinks too: a link to a file outside the package (or to a device,
    // which never ends) is refused, where it loaded or read as "not found".
    void checkRegularFileInside(const std::string &file, const std::string &path) const
    {
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
    }
};

// What the package is: format, id, names, task, architecture, plugin, licence, languages.
struct Identity
{
    std::string id, name, version, architecture, plugin, licence;
    Task task = Task::Translation;
    std::string sourceLanguage, targetLanguage;
};

Identity readIdentity(const ManifestReader &r, const json &m)
{
    const json &version = r.require(m, "format_version", "format_version");
    if (!version.is_number_integer())
        r.fail("\"format_version\" is " + typeName(version) + ", expected 1");
    if (version.get<std::int64_t>() != 1)
        r.fail("\"format_version\" is " + version.dump() +
               "; this version of Glosa reads format 1 only");
    Identity p;
    p.id = r.requireString(m, "id", "id");
    if (!isValidId(p.id))
        r.fail("\"id\" is \"" + p.id +
               "\"; ids use letters, digits, '-', '_' and '.' only and do not start with '.' or "
               "'-'");
    p.name = r.requireString(m, "name", "name");
    if (m.contains("version")) {
        if (!m["version"].is_string())
            r.fail("\"version\" is " + typeName(m["version"]) + ", expected a string");
        p.version = m["version"].get<std::string>();
    }
    const std::string task = r.requireString(m, "task", "task");
    if (const std::optional<Task> known = taskFromName(task))
        p.task = *known;
    else
        r.fail("\"task\" is \"" + task + "\", expected \"" + taskName(Task::Translation) +
               "\" or \"" + taskName(Task::Captioning) + "\"");
    p.architecture = r.requireString(m, "architecture", "architecture");
    p.plugin = r.requireString(m, "plugin", "plugin");
    p.licence = r.requireString(m, "licence", "licence");
    const json &languages = r.requireObject(m, "languages", "languages");
    p.targetLanguage = r.requireString(languages, "target", "languages.target");
    if (p.task == Task::Translation)
        p.sourceLanguage = r.requireString(languages, "source", "languages.source");
    return p;
}

// The sections the loader does not read itself, checked for their type; the training data
// must be named with its licence and attribution.
void checkSections(const ManifestReader &r, const json &m)
{
    r.requireObject(m, "hyperparameters", "hyperparameters");
    if (m.contains("decoding") && !m["decoding"].is_object())
        r.fail("\"decoding\" is " + typeName(m["decoding"]) + ", expected an object");
    if (m.contains("scores") && !m["scores"].is_object())
        r.fail("\"scores\" is " + typeName(m["scores"]) + ", expected an object");
    const json &training = r.requireObject(m, "training", "training");
    const json &data = r.require(training, "data", "training.data");
    if (!data.is_array() || data.empty())
        r.fail("\"training.data\" must be a non-empty array naming the training "
               "data with its licence and attribution");
    for (std::size_t i = 0; i < data.size(); ++i) {
        const std::string at = "training.data[" + std::to_string(i) + "]";
        if (!data[i].is_object())
            r.fail("\"" + at + "\" is " + typeName(data[i]) + ", expected an object");
        r.requireString(data[i], "licence", at + ".licence");
        r.requireString(data[i], "attribution", at + ".attribution");
    }
}

// The files the manifest names, each checked to be a regular file inside the package; "" for
// an optional one absent (a captioner has no source side).
struct PackageFiles
{
    std::string targetModel, sourceModel, weights;
    // Optional vocabularies that number the pieces (MarianMT's vocab.json, tokenizer.h).
    std::string targetVocabulary, sourceVocabulary, truecase;
};

PackageFiles readFiles(const ManifestReader &r, const json &m, bool translation)
{
    const json &tokenizer = r.requireObject(m, "tokenizer", "tokenizer");
    const std::string type = r.requireString(tokenizer, "type", "tokenizer.type");
    if (type != "sentencepiece")
        r.fail("\"tokenizer.type\" is \"" + type + "\", expected \"sentencepiece\"");
    PackageFiles f;
    f.targetModel = r.requireFile(tokenizer, "target", "tokenizer.target");
    if (translation)
        f.sourceModel = r.requireFile(tokenizer, "source", "tokenizer.source");
    f.weights = r.requireFile(m, "weights", "weights");
    const auto optionalFile = [&](const char *key) {
        return tokenizer.contains(key)
                   ? r.requireFile(tokenizer, key, std::string("tokenizer.") + key)
                   : std::string();
    };
    f.targetVocabulary = optionalFile("target_vocabulary");
    if (translation) {
        f.sourceVocabulary = optionalFile("source_vocabulary");
        f.truecase = optionalFile("truecase");
    }
    return f;
}

std::shared_ptr<const Tokenizer> makeTokenizer(const std::string &model,
                                               const std::string &vocabulary)
{
    return vocabulary.empty() ? std::make_shared<const Tokenizer>(model)
                              : std::make_shared<const Tokenizer>(model, vocabulary);
}

} // namespace

ModelPackage ModelPackage::load(const std::string &folder, ComputeType computeType)
{
    ModelPackage package;
    package.m_folder = folder;
    const std::string manifestPath = package.manifestPath();
    package.m_manifest = readManifestFile(folder, manifestPath);
    const json &m = package.m_manifest;
    const ManifestReader reader{manifestPath, folder};
    Identity identity = readIdentity(reader, m);
    package.m_id = std::move(identity.id);
    package.m_name = std::move(identity.name);
    package.m_version = std::move(identity.version);
    package.m_task = identity.task;
    package.m_architecture = std::move(identity.architecture);
    package.m_plugin = std::move(identity.plugin);
    package.m_licence = std::move(identity.licence);
    package.m_targetLanguage = std::move(identity.targetLanguage);
    package.m_sourceLanguage = std::move(identity.sourceLanguage);
    const bool translation = package.m_task == Task::Translation;
    checkSections(reader, m);
    // Files last, so that a manifest error is reported before a missing-file error.
    const PackageFiles files = readFiles(reader, m, translation);

    std::error_code error;
    const auto sameFile = [&](const std::string &a, const std::string &b) {
        return a.empty() ? b.empty() : !b.empty() && fs::equivalent(a, b, error);
    };
    package.m_weights = std::make_shared<const SafeTensorsFile>(files.weights);
    package.m_targetTokenizer = makeTokenizer(files.targetModel, files.targetVocabulary);
    if (translation)
        package.m_sourceTokenizer = sameFile(files.sourceModel, files.targetModel) &&
                                            sameFile(files.sourceVocabulary, files.targetVocabulary)
                                        ? package.m_targetTokenizer
                                        : makeTokenizer(files.sourceModel, files.sourceVocabulary);
    if (!files.truecase.empty())
        package.m_truecaser = std::make_shared<const Truecaser>(Truecaser::load(files.truecase));
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
