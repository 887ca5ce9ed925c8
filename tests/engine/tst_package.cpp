// Model package loading: the safetensors reader against deliberately broken files (every error
// must name the file and the tensor), and ModelPackage against broken manifests and tokenizers.
// Files are written byte by byte here so that each test states exactly what is on disk.
#include "engine/package.h"
#include "engine/safetensors.h"

#include "tests/support/testutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace glosa::engine;

namespace {

QByteArray littleEndian64(quint64 value)
{
    QByteArray bytes(8, '\0');
    for (int i = 0; i < 8; ++i)
        bytes[i] = static_cast<char>((value >> (8 * i)) & 0xff);
    return bytes;
}

// A safetensors file: length, header padded with spaces to a multiple of 8 (as the reference
// writer does, so that data offsets keep their alignment), data.
QByteArray safetensorsBytes(QByteArray header, const QByteArray &data)
{
    while (header.size() % 8)
        header += ' ';
    return littleEndian64(header.size()) + header + data;
}

QByteArray floatBytes(const std::vector<float> &values)
{
    return QByteArray(reinterpret_cast<const char *>(values.data()),
                      static_cast<qsizetype>(values.size() * 4));
}

QByteArray halfBytes(const std::vector<float> &values, bool bf16)
{
    QByteArray bytes;
    for (float v : values) {
        std::uint16_t bits;
        if (bf16) {
            std::uint32_t x;
            std::memcpy(&x, &v, 4);
            bits = static_cast<std::uint16_t>(x >> 16); // exact for the values used here
        } else {
            bits = floatToHalf(v);
        }
        bytes.append(reinterpret_cast<const char *>(&bits), 2);
    }
    return bytes;
}

struct TensorSpec
{
    std::string name;
    std::string dtype;
    Shape shape;
    QByteArray data;
};

// A well-formed file holding `tensors` back to back.
QByteArray buildSafetensors(const std::vector<TensorSpec> &tensors,
                            const nlohmann::json &metadata = nullptr)
{
    nlohmann::json header = nlohmann::json::object();
    if (!metadata.is_null())
        header["__metadata__"] = metadata;
    QByteArray data;
    for (const auto &t : tensors) {
        header[t.name] = {{"dtype", t.dtype},
                          {"shape", t.shape},
                          {"data_offsets", {data.size(), data.size() + t.data.size()}}};
        data += t.data;
    }
    return safetensorsBytes(QByteArray::fromStdString(header.dump()), data);
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// The manifest of docs/model-package.md, shrunk to a two-tensor toy model.
nlohmann::json validManifest()
{
    return nlohmann::json::parse(R"({
        "format_version": 1,
        "id": "toy-en-es",
        "version": "1.0.0",
        "name": "Toy English → Spanish",
        "task": "translation",
        "architecture": "toy",
        "plugin": "toy",
        "languages": {"source": "en", "target": "es"},
        "hyperparameters": {"d_model": 4, "vocab": 3, "dropout": 0.1, "tied": true,
                            "activation": "relu", "huge": 10000000000, "negative": -3},
        "tokenizer": {"type": "sentencepiece", "source": "spm.model", "target": "spm.model"},
        "weights": "model.safetensors",
        "decoding": {"strategy": "beam", "beam_size": 4},
        "training": {"script": "none", "data": [{"name": "hand-written", "licence": "CC0",
                                                  "attribution": "the Glosa tests"}]},
        "licence": "CC0",
        "x-unknown": {"kept": true}
    })");
}

QByteArray validWeights()
{
    return buildSafetensors({{"embedding.weight",
                              "F16",
                              {3, 4},
                              halfBytes({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, false)},
                             {"out.bias", "F32", {3}, floatBytes({0.5f, -0.5f, 0})},
                             {"positions", "I32", {2}, QByteArray(8, '\0')}});
}

QString spmModel()
{
    return glosa::test::testDataDir() + "/spm/spm.model";
}

// Writes a package into `folder`: model.json, model.safetensors and spm.model.
bool writePackage(const QString &folder, const nlohmann::json &manifest,
                  const QByteArray &weights = validWeights())
{
    QFile::remove(folder + "/spm.model");
    return writeFile(folder + "/model.json", QByteArray::fromStdString(manifest.dump(2))) &&
           writeFile(folder + "/model.safetensors", weights) &&
           QFile::copy(spmModel(), folder + "/spm.model");
}

template <typename Call>
QString packageError(Call call, std::string *file = nullptr, std::string *tensor = nullptr)
{
    try {
        call();
    } catch (const PackageError &e) {
        if (file)
            *file = e.file();
        if (tensor)
            *tensor = e.tensor();
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("<no PackageError>");
}

} // namespace

class TestPackage : public QObject
{
    Q_OBJECT
private slots:
    void brokenSafetensors_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("tensor");  // the tensor the error must name ("" for none)
        QTest::addColumn<QString>("message"); // a substring the error must contain

        const QByteArray valid = buildSafetensors({{"w", "F32", {2, 2}, floatBytes({1, 2, 3, 4})}});
        auto header = [](const char *json, const QByteArray &data = QByteArray(64, '\0')) {
            return safetensorsBytes(json, data);
        };

        QTest::newRow("empty") << QByteArray() << ""
                               << "0 bytes, too short";
        QTest::newRow("5 bytes") << QByteArray(5, '\x01') << ""
                                 << "5 bytes, too short";
        QTest::newRow("header length past end")
            << (littleEndian64(1000) + QByteArray("{}      ")) << ""
            << "header length 1000 exceeds the 8 bytes that follow it";
        QTest::newRow("header length 2^64-1") << (littleEndian64(~0ull) + QByteArray(16, ' ')) << ""
                                              << "header length 18446744073709551615 exceeds";
        QTest::newRow("header length 0") << littleEndian64(0) << ""
                                         << "too short for a JSON";
        QTest::newRow("truncated header") << valid.left(20) << ""
                                          << "exceeds the 12 bytes";
        QTest::newRow("truncated data")
            << valid.left(valid.size() - 3) << "w"
            << "data_offsets [0, 16] reach past the end of the 13-byte data section";
        QTest::newRow("not json") << header("{\"w\": [1, 2") << ""
                                  << "header is not valid JSON";
        QTest::newRow("binary garbage")
            << safetensorsBytes(QByteArray("\xff\xfe\x00\x01garbage", 11), {}) << ""
            << "header is not valid JSON";
        QTest::newRow("json array") << header("[1, 2, 3]") << ""
                                    << "header is a JSON array";
        QTest::newRow("duplicate tensor")
            << header(R"({"w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]},
                          "w": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})")
            << ""
            << "key \"w\" more than once";
        QTest::newRow("entry not object") << header(R"({"w": 3})") << "w"
                                          << "entry is a JSON number";
        QTest::newRow("no dtype") << header(R"({"w": {"shape": [1], "data_offsets": [0, 4]}})")
                                  << "w"
                                  << "entry has no \"dtype\"";
        QTest::newRow("no shape") << header(R"({"w": {"dtype": "F32", "data_offsets": [0, 4]}})")
                                  << "w"
                                  << "entry has no \"shape\"";
        QTest::newRow("no offsets") << header(R"({"w": {"dtype": "F32", "shape": [1]}})") << "w"
                                    << "entry has no \"data_offsets\"";
        QTest::newRow("unknown dtype")
            << header(R"({"enc.w": {"dtype": "F12", "shape": [1], "data_offsets": [0, 4]}})")
            << "enc.w"
            << "dtype \"F12\" is unknown";
        QTest::newRow("unsupported dtype")
            << header(R"({"ids": {"dtype": "I64", "shape": [1], "data_offsets": [0, 8]}})") << "ids"
            << "dtype \"I64\" is not supported (supported: F32, F16, BF16, I32, I8)";
        QTest::newRow("dtype not string")
            << header(R"({"w": {"dtype": 32, "shape": [1], "data_offsets": [0, 4]}})") << "w"
            << "\"dtype\" is a JSON number";
        QTest::newRow("negative dim")
            << header(R"({"w": {"dtype": "F32", "shape": [2, -2], "data_offsets": [0, 16]}})")
            << "w"
            << "shape [2,-2] has a negative dimension";
        QTest::newRow("fractional dim")
            << header(R"({"w": {"dtype": "F32", "shape": [2.5], "data_offsets": [0, 10]}})") << "w"
            << "non-integer dimension 2.5";
        QTest::newRow("shape not array")
            << header(R"({"w": {"dtype": "F32", "shape": 4, "data_offsets": [0, 16]}})") << "w"
            << "\"shape\" is a JSON number";
        QTest::newRow("dim beyond uint64")
            << header(R"({"w": {"dtype": "F32", "shape": [1e30], "data_offsets": [0, 4]}})") << "w"
            << "non-integer dimension";
        QTest::newRow("element count overflows")
            << header(R"({"w": {"dtype": "F32", "shape": [4294967296, 4294967296],
                                "data_offsets": [0, 0]}})")
            << "w"
            << "more elements than the limit of 2147483648";
        QTest::newRow("element count over the limit")
            << header(R"({"w": {"dtype": "F32", "shape": [2147483649],
                                "data_offsets": [0, 0]}})")
            << "w"
            << "more elements than the limit of 2147483648";
        QTest::newRow("rank over the limit")
            << header(R"({"w": {"dtype": "F32", "shape": [1, 1, 1, 1, 1, 1, 1, 1, 1],
                                "data_offsets": [0, 4]}})")
            << "w"
            << "shape has 9 dimensions, more than the limit of 8";
        QTest::newRow("nested deeper than the limit")
            << safetensorsBytes("{\"w\": " + QByteArray(100, '[') + QByteArray(100, ']') + "}",
                                QByteArray(64, '\0'))
            << ""
            << "nests objects or arrays deeper than the limit of 64";
        QTest::newRow("span != shape x size")
            << header(R"({"decoder.out.weight": {"dtype": "F16", "shape": [8, 4],
                                                 "data_offsets": [0, 60]}})")
            << "decoder.out.weight"
            << "shape [8, 4] × F16 = 64 bytes but data_offsets span 60 bytes";
        QTest::newRow("offsets reversed")
            << header(R"({"w": {"dtype": "F32", "shape": [0], "data_offsets": [8, 4]}})") << "w"
            << "end before they begin";
        QTest::newRow("offsets negative")
            << header(R"({"w": {"dtype": "F32", "shape": [1], "data_offsets": [-4, 0]}})") << "w"
            << "expected [begin, end] with non-negative integers";
        QTest::newRow("offsets three")
            << header(R"({"w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4, 8]}})") << "w"
            << "expected [begin, end]";
        QTest::newRow("offsets outside file")
            << header(R"({"w": {"dtype": "F32", "shape": [32], "data_offsets": [0, 128]}})") << "w"
            << "data_offsets [0, 128] reach past the end of the 64-byte data section";
        QTest::newRow("offsets far outside file") << header(R"({"w": {"dtype": "F32", "shape": [1],
                                "data_offsets": [18446744073709551608, 18446744073709551612]}})")
                                                  << "w"
                                                  << "reach past the end";
        QTest::newRow("overlap")
            << header(R"({"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]},
                          "b": {"dtype": "F32", "shape": [4], "data_offsets": [8, 24]}})")
            << "b"
            << "data_offsets [8, 24] overlap tensor \"a\" at [0, 16]";
        QTest::newRow("overlap contained")
            << header(R"({"a": {"dtype": "F32", "shape": [8], "data_offsets": [0, 32]},
                          "b": {"dtype": "F32", "shape": [1], "data_offsets": [16, 20]},
                          "c": {"dtype": "F32", "shape": [1], "data_offsets": [24, 28]}})")
            << "b"
            << "overlap tensor \"a\"";
        QTest::newRow("metadata not strings") << header(R"({"__metadata__": {"epochs": 5}})") << ""
                                              << "value \"epochs\" is a JSON number";
        QTest::newRow("nan f32")
            << buildSafetensors(
                   {{"ok", "F32", {2}, floatBytes({1, 2})},
                    {"enc.w", "F32", {2, 3}, floatBytes({0, 1, 2, 3, std::nanf(""), 5})}})
            << "enc.w"
            << "value 4 (index [1, 1]) is NaN";
        QTest::newRow("inf f16") << buildSafetensors(
                                        {{"h",
                                          "F16",
                                          {3},
                                          halfBytes({1, -std::numeric_limits<float>::infinity(), 0},
                                                    false)}})
                                 << "h"
                                 << "value 1 (index [1]) is infinite";
        QTest::newRow("nan bf16") << buildSafetensors(
                                         {{"b", "BF16", {2}, halfBytes({std::nanf(""), 1}, true)}})
                                  << "b"
                                  << "value 0 (index [0]) is NaN";
    }
    void brokenSafetensors()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, tensor);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString path = dir.filePath("model.safetensors");
        QVERIFY(writeFile(path, bytes));
        try {
            SafeTensorsFile file(path.toStdString());
            QFAIL("no PackageError");
        } catch (const PackageError &e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.startsWith(path + ": "), qPrintable(what));
            QVERIFY2(what.contains(message), qPrintable(what));
            QCOMPARE(QString::fromStdString(e.file()), path);
            QCOMPARE(QString::fromStdString(e.tensor()), tensor);
            if (!tensor.isEmpty())
                QVERIFY2(what.contains("tensor \"" + tensor + "\": "), qPrintable(what));
        }
    }
    void missingOrSpecialFile()
    {
        QTemporaryDir dir;
        const std::string missing = dir.filePath("nothing.safetensors").toStdString();
        QVERIFY_THROWS_EXCEPTION(PackageError, SafeTensorsFile{missing});
        try {
            SafeTensorsFile file(missing);
        } catch (const PackageError &e) {
            QVERIFY2(std::string(e.what()).find("cannot open: No such file") != std::string::npos,
                     e.what());
        }
        try {
            SafeTensorsFile file(dir.path().toStdString());
            QFAIL("a directory was accepted");
        } catch (const PackageError &e) {
            QVERIFY2(std::string(e.what()).find("not a regular file") != std::string::npos,
                     e.what());
        }
    }
    void validRoundTrip()
    {
        const std::vector<float> values = {0.5f, -1.25f, 3.0f, 0.0f, -0.0f, 65504.0f};
        std::vector<std::int32_t> ids = {7, -3, 1 << 30};
        const QByteArray bytes = buildSafetensors(
            {{"f32", "F32", {2, 3}, floatBytes(values)},
             {"f16", "F16", {3, 2}, halfBytes(values, false)},
             {"bf16", "BF16", {6}, halfBytes({0.5f, -1.25f, 3.0f, 0.0f, -0.0f, 65536.0f}, true)},
             {"ids", "I32", {3}, QByteArray(reinterpret_cast<const char *>(ids.data()), 12)},
             {"empty", "F32", {0, 4}, {}},
             {"scalar", "F32", {}, floatBytes({42})}},
            {{"format", "pt"}, {"epochs", "5"}});
        QTemporaryDir dir;
        const QString path = dir.filePath("model.safetensors");
        QVERIFY(writeFile(path, bytes));

        Tensor f16View;
        {
            SafeTensorsFile file(path.toStdString());
            QCOMPARE(file.path(), path.toStdString());
            QCOMPARE(file.names(),
                     (std::vector<std::string>{"bf16", "empty", "f16", "f32", "ids", "scalar"}));
            QVERIFY(file.contains("f16"));
            QVERIFY(!file.contains("F16"));
            QCOMPARE(file.metadata().at("format"), std::string("pt"));
            QCOMPARE(file.metadata().at("epochs"), std::string("5"));
            QCOMPARE(file.shape("f16"), (Shape{3, 2}));
            QCOMPARE(file.shape("scalar"), Shape{});
            QVERIFY(file.dtype("bf16") == DType::BF16);
            QVERIFY(file.dtype("ids") == DType::I32);

            for (const char *name : {"f32", "f16"}) {
                const Tensor t = file.loadFloat(name);
                QVERIFY(t.dtype() == DType::F32);
                QCOMPARE(reinterpret_cast<std::uintptr_t>(t.raw()) % kTensorAlignment, 0u);
                for (int i = 0; i < 6; ++i)
                    QCOMPARE(t.data<float>()[i], values[i]);
            }
            const Tensor b = file.loadFloat("bf16", {6});
            QCOMPARE(b.data<float>()[5], 65536.0f);
            QCOMPARE(b.data<float>()[1], -1.25f);
            QCOMPARE(file.loadFloat("scalar").data<float>()[0], 42.0f);
            QCOMPARE(file.loadFloat("empty", {0, 4}).numel(), 0);

            const Tensor idView = file.view("ids");
            QVERIFY(idView.dtype() == DType::I32);
            QCOMPARE(idView.data<std::int32_t>()[2], 1 << 30);
            f16View = file.view("f16");
            QVERIFY(f16View.dtype() == DType::F16);
            QCOMPARE(f16View.shape(), (Shape{3, 2}));

            auto expectError = [&](auto call, const char *tensor, const char *message) {
                try {
                    call();
                    QFAIL("no PackageError");
                } catch (const PackageError &e) {
                    QCOMPARE(e.tensor(), std::string(tensor));
                    QVERIFY2(std::string(e.what()).find(message) != std::string::npos, e.what());
                }
            };
            expectError(
                [&] {
                    file.loadFloat("f32", {3, 2});
                },
                "f32", "shape [2, 3] does not match the expected [3, 2]");
            expectError([&] { file.loadFloat("ids"); }, "ids", "dtype I32 cannot be loaded");
            expectError([&] { file.view("decoder.missing"); }, "decoder.missing",
                        "not found (the file has 6 tensors)");
            expectError([&] { file.shape("nope"); }, "nope", "not found");
        }
        // The view keeps the mapping alive after the file object is gone.
        QCOMPARE(halfToFloat(f16View.data<std::uint16_t>()[5]), 65504.0f);
        QCOMPARE(f16View.toFloat32().data<float>()[1], -1.25f);
    }

    void validPackage()
    {
        QTemporaryDir dir;
        QVERIFY(writePackage(dir.path(), validManifest()));
        const ModelPackage package = ModelPackage::load(dir.path().toStdString());
        QCOMPARE(package.folder(), dir.path().toStdString());
        QCOMPARE(package.id(), std::string("toy-en-es"));
        QCOMPARE(package.name(), std::string("Toy English → Spanish"));
        QCOMPARE(package.version(), std::string("1.0.0"));
        QVERIFY(package.task() == Task::Translation);
        QCOMPARE(package.architecture(), std::string("toy"));
        QCOMPARE(package.plugin(), std::string("toy"));
        QCOMPARE(package.licence(), std::string("CC0"));
        QCOMPARE(package.sourceLanguage(), std::string("en"));
        QCOMPARE(package.targetLanguage(), std::string("es"));
        QCOMPARE(package.manifest()["x-unknown"]["kept"].get<bool>(), true);
        QCOMPARE(package.decoding()["beam_size"].get<int>(), 4);
        QCOMPARE(package.hyperparameter<int>("d_model"), 4);
        QCOMPARE(package.hyperparameter<double>("dropout"), 0.1);
        QCOMPARE(package.hyperparameter<double>("d_model"), 4.0); // integers are numbers too
        QCOMPARE(package.hyperparameter<bool>("tied"), true);
        QCOMPARE(package.hyperparameter<std::string>("activation"), std::string("relu"));
        QCOMPARE(package.hyperparameter<std::int64_t>("huge"), std::int64_t(10000000000));
        QCOMPARE(package.hyperparameter<int>("layers", 6), 6);

        QVERIFY(package.sourceTokenizer());
        QCOMPARE(package.sourceTokenizer(), package.targetTokenizer()); // one file, one instance
        QCOMPARE(package.targetTokenizer()->pieceToId("<s>"), 2);

        package.requireTensors({{"embedding.weight", {3, 4}}, {"out.bias", {3}}, {"out.bias", {}}});
        const Tensor embedding = package.weight("embedding.weight", {3, 4});
        QVERIFY(embedding.dtype() == DType::F32);
        QCOMPARE(embedding.data<float>()[11], 11.0f);
        QCOMPARE(package.weights().names().size(), std::size_t(3));
        // linearWeight: F16 stays F16 (for Linear's fp16 kernel), with the same values as
        // weight()'s fp32 copy; anything else is weight().
        const Tensor stored = package.linearWeight("embedding.weight", {3, 4});
        QVERIFY(stored.dtype() == DType::F16);
        QCOMPARE(stored.shape(), (Shape{3, 4}));
        QCOMPARE(stored.toFloat32().data<float>()[11], 11.0f);
        QVERIFY(package.linearWeight("out.bias").dtype() == DType::F32);
        QCOMPARE(package.linearWeight("out.bias").data<float>()[0], 0.5f);

        // Plugin-side checks name model.json or the tensor.
        std::string file, tensor;
        QString what = packageError([&] { package.hyperparameter<int>("layers"); }, &file);
        QVERIFY2(what.contains("missing required key \"hyperparameters.layers\""),
                 qPrintable(what));
        QCOMPARE(file, package.manifestPath());
        what = packageError([&] { package.hyperparameter<int>("activation"); });
        QVERIFY2(what.contains("\"hyperparameters.activation\" is \"relu\", expected an integer"),
                 qPrintable(what));
        what = packageError([&] { package.hyperparameter<int>("huge"); });
        QVERIFY2(what.contains("expected an integer in range"), qPrintable(what));
        QCOMPARE(package.hyperparameter<int>("negative"), -3);
        what = packageError([&] { package.hyperparameter<std::size_t>("negative"); });
        QVERIFY2(what.contains("\"hyperparameters.negative\" is -3, expected an integer in range"),
                 qPrintable(what));
        what = packageError([&] { package.hyperparameter<bool>("d_model"); });
        QVERIFY2(what.contains("expected a boolean"), qPrintable(what));

        what = packageError([&] { package.linearWeight("embedding.weight", {4, 3}); }, &file,
                            &tensor);
        QCOMPARE(tensor, std::string("embedding.weight"));
        QVERIFY2(what.endsWith("model.safetensors: tensor \"embedding.weight\": shape [3, 4] does "
                               "not match the expected [4, 3]"),
                 qPrintable(what));
        what = packageError([&] { package.weight("out.bias", {4}); }, &file, &tensor);
        QCOMPARE(tensor, std::string("out.bias"));
        QVERIFY2(what.endsWith("model.safetensors: tensor \"out.bias\": shape [3] does not match "
                               "the expected [4]"),
                 qPrintable(what));

        what = packageError(
            [&] {
                package.requireTensors({{"embedding.weight", {3, 4}},
                                        {"decoder.out.weight", {3, 4}},
                                        {"out.bias", {4}},
                                        {"positions", {2}}});
            },
            &file, &tensor);
        QCOMPARE(tensor, std::string("decoder.out.weight"));
        QCOMPARE(QString::fromStdString(file), dir.filePath("model.safetensors"));
        QVERIFY2(what.contains("tensor \"decoder.out.weight\": not found (architecture \"toy\"); "
                               "2 more: tensor \"out.bias\": shape [3] does not match the "
                               "expected [4]; tensor \"positions\": dtype I32"),
                 qPrintable(what));
    }
    void captioningPackageHasNoSourceTokenizer()
    {
        nlohmann::json manifest = validManifest();
        manifest["task"] = "captioning";
        manifest["languages"].erase("source");
        manifest["tokenizer"].erase("source");
        QTemporaryDir dir;
        QVERIFY(writePackage(dir.path(), manifest));
        const ModelPackage package = ModelPackage::load(dir.path().toStdString());
        QVERIFY(package.task() == Task::Captioning);
        QVERIFY(!package.sourceTokenizer());
        QVERIFY(package.targetTokenizer());
        QCOMPARE(package.sourceLanguage(), std::string());
    }
    // "tokenizer.truecase": the source side's truecase table (text/truecaser.h), optional.
    void truecaseTable()
    {
        QTemporaryDir dir;
        const QString folder = dir.path();
        nlohmann::json manifest = validManifest();
        QVERIFY(writePackage(folder, manifest));
        QVERIFY(!ModelPackage::load(folder.toStdString()).truecaser());

        manifest["tokenizer"]["truecase"] = "truecase.en";
        QVERIFY(writePackage(folder, manifest));
        std::string file;
        const QString what =
            packageError([&] { ModelPackage::load(folder.toStdString()); }, &file);
        QCOMPARE(QString::fromStdString(file), folder + "/truecase.en");
        QVERIFY2(what.contains("truecase.en: file not found (named by \"tokenizer.truecase\" in "
                               "model.json)"),
                 qPrintable(what));
        QVERIFY(writeFile(folder + "/truecase.en", "# words\nhello\nteacher\n"));
        const ModelPackage package = ModelPackage::load(folder.toStdString());
        QVERIFY(package.truecaser());
        QCOMPARE(package.truecaser()->size(), std::size_t(2));
    }
    // Each row patches the valid manifest (RFC 6902 JSON patch) and expects this message.
    void brokenManifest_data()
    {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<QString>("message");
        auto remove = [](const char *path) {
            return QString(R"([{"op": "remove", "path": "%1"}])").arg(path);
        };
        auto replace = [](const char *path, const char *value) {
            return QString(R"([{"op": "replace", "path": "%1", "value": %2}])").arg(path, value);
        };
        for (const char *key :
             {"format_version", "id", "name", "task", "architecture", "plugin", "languages",
              "hyperparameters", "tokenizer", "weights", "training", "licence"})
            QTest::newRow(qPrintable(QString("no ") + key))
                << remove(qPrintable(QString("/") + key))
                << QString("missing required key \"%1\"").arg(key);
        QTest::newRow("no target language")
            << remove("/languages/target") << "missing required key \"languages.target\"";
        QTest::newRow("no source language")
            << remove("/languages/source") << "missing required key \"languages.source\"";
        QTest::newRow("no source tokenizer")
            << remove("/tokenizer/source") << "missing required key \"tokenizer.source\"";
        QTest::newRow("no training data")
            << remove("/training/data") << "missing required key \"training.data\"";
        QTest::newRow("no data licence") << remove("/training/data/0/licence")
                                         << "missing required key \"training.data[0].licence\"";
        QTest::newRow("no attribution") << remove("/training/data/0/attribution")
                                        << "missing required key \"training.data[0].attribution\"";
        QTest::newRow("empty training data")
            << replace("/training/data", "[]") << "\"training.data\" must be a non-empty array";
        QTest::newRow("format 2")
            << replace("/format_version", "2")
            << "\"format_version\" is 2; this version of Glosa reads format 1";
        QTest::newRow("format string")
            << replace("/format_version", "\"1\"") << "\"format_version\" is a string, expected 1";
        QTest::newRow("id number")
            << replace("/id", "7") << "\"id\" is a number, expected a string";
        QTest::newRow("id path") << replace("/id", "\"../../etc\"") << "\"id\" is \"../../etc\"";
        QTest::newRow("empty name") << replace("/name", "\"\"") << "\"name\" is empty";
        QTest::newRow("bad task") << replace("/task", "\"summarise\"")
                                  << "\"task\" is \"summarise\", expected \"translation\" or "
                                     "\"captioning\"";
        QTest::newRow("languages array") << replace("/languages", "[\"en\", \"es\"]")
                                         << "\"languages\" is an array, expected an object";
        QTest::newRow("hyperparameters null") << replace("/hyperparameters", "null")
                                              << "\"hyperparameters\" is null, expected an object";
        QTest::newRow("decoding string")
            << replace("/decoding", "\"beam\"") << "\"decoding\" is a string, expected an object";
        QTest::newRow("tokenizer type")
            << replace("/tokenizer/type", "\"bpe\"")
            << "\"tokenizer.type\" is \"bpe\", expected \"sentencepiece\"";
        QTest::newRow("absolute weights") << replace("/weights", "\"/etc/passwd\"")
                                          << "\"weights\" is \"/etc/passwd\"; files must be named "
                                             "relative to the package folder";
        QTest::newRow("escaping tokenizer") << replace("/tokenizer/target", "\"../spm.model\"")
                                            << "\"tokenizer.target\" is \"../spm.model\"";
        QTest::newRow("escaping truecase table")
            << QString(R"([{"op": "add", "path": "/tokenizer/truecase", "value": "../t.en"}])")
            << "\"tokenizer.truecase\" is \"../t.en\"; files must be named relative";
        QTest::newRow("version number")
            << replace("/version", "1") << "\"version\" is a number, expected a string";
    }
    void brokenManifest()
    {
        QFETCH(QString, patch);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const nlohmann::json manifest =
            validManifest().patch(nlohmann::json::parse(patch.toStdString()));
        QVERIFY(writePackage(dir.path(), manifest));
        std::string file;
        const QString what =
            packageError([&] { ModelPackage::load(dir.path().toStdString()); }, &file);
        QCOMPARE(QString::fromStdString(file), dir.filePath("model.json"));
        QVERIFY2(what.startsWith(dir.filePath("model.json") + ": "), qPrintable(what));
        QVERIFY2(what.contains(message), qPrintable(what));
    }
    void brokenPackageFiles()
    {
        QTemporaryDir dir;
        const QString folder = dir.path();
        std::string file, tensor;
        auto load = [&] { ModelPackage::load(folder.toStdString()); };

        QString what = packageError([&] { ModelPackage::load((folder + "/none").toStdString()); });
        QVERIFY2(what.contains("/none: not a folder"), qPrintable(what));
        what = packageError(load, &file);
        QCOMPARE(QString::fromStdString(file), folder + "/model.json");
        QVERIFY2(what.contains("model.json: file not found"), qPrintable(what));

        QVERIFY(writePackage(folder, validManifest()));
        QVERIFY(writeFile(folder + "/model.json", "{\"id\": \"x\",\n \"name\": }"));
        what = packageError(load, &file);
        QVERIFY2(what.contains("model.json: not valid JSON: ") && what.contains("line 2"),
                 qPrintable(what));
        QVERIFY(writeFile(folder + "/model.json", "[1]"));
        QVERIFY2(packageError(load).contains("model.json: the top level is an array"),
                 qPrintable(packageError(load)));

        // Missing and broken tokenizers name the tokenizer file.
        nlohmann::json manifest = validManifest();
        manifest["tokenizer"]["source"] = "source.model";
        QVERIFY(writePackage(folder, manifest));
        what = packageError(load, &file);
        QCOMPARE(QString::fromStdString(file), folder + "/source.model");
        QVERIFY2(what.contains("source.model: file not found (named by \"tokenizer.source\" in "
                               "model.json)"),
                 qPrintable(what));
        QVERIFY(writeFile(folder + "/source.model", "this is not a protobuf"));
        what = packageError(load, &file);
        QCOMPARE(QString::fromStdString(file), folder + "/source.model");
        QVERIFY2(what.contains("source.model: cannot load the SentencePiece model"),
                 qPrintable(what));
        QVERIFY(QFile::remove(folder + "/source.model"));
        QVERIFY(QFile::copy(spmModel(), folder + "/source.model"));
        const ModelPackage twoTokenizers = ModelPackage::load(folder.toStdString());
        QVERIFY(twoTokenizers.sourceTokenizer() != twoTokenizers.targetTokenizer());

        // Weights: missing file, then a NaN in one tensor.
        QVERIFY(writePackage(folder, validManifest()));
        QVERIFY(QFile::remove(folder + "/model.safetensors"));
        what = packageError(load, &file);
        QVERIFY2(what.contains("model.safetensors: file not found (named by \"weights\""),
                 qPrintable(what));
        QVERIFY(writePackage(
            folder, validManifest(),
            buildSafetensors({{"out.bias", "F32", {2}, floatBytes({1, std::nanf("")})}})));
        what = packageError(load, &file, &tensor);
        QCOMPARE(QString::fromStdString(file), folder + "/model.safetensors");
        QCOMPARE(tensor, std::string("out.bias"));
        QVERIFY2(what.contains("tensor \"out.bias\": value 1 (index [1]) is NaN"),
                 qPrintable(what));
    }
    // Random corruptions of a valid file must load or throw PackageError, never crash.
    void corruptedFilesNeverCrash()
    {
        const QByteArray valid =
            buildSafetensors({{"a", "F32", {2, 3}, floatBytes({1, 2, 3, 4, 5, 6})},
                              {"b", "F16", {4}, halfBytes({1, 2, 3, 4}, false)}},
                             {{"k", "v"}});
        QTemporaryDir dir;
        const QString path = dir.filePath("fuzz.safetensors");
        std::mt19937 random(1234);
        int loaded = 0, rejected = 0;
        for (int round = 0; round < 400; ++round) {
            QByteArray bytes = valid;
            const int kind = round % 3;
            if (kind == 0) { // truncate
                bytes.truncate(std::uniform_int_distribution<int>(0, valid.size() - 1)(random));
            } else { // overwrite 1-4 bytes, biased towards the header where the structure is
                const int edits = std::uniform_int_distribution<int>(1, 4)(random);
                for (int e = 0; e < edits; ++e) {
                    const int limit = kind == 1 ? 8 + 24 : valid.size();
                    const int at = std::uniform_int_distribution<int>(0, limit - 1)(random);
                    bytes[at] = static_cast<char>(random() & 0xff);
                }
            }
            QVERIFY(writeFile(path, bytes));
            try {
                SafeTensorsFile file(path.toStdString());
                for (const auto &name : file.names())
                    if (file.dtype(name) != DType::I32)
                        QVERIFY(file.loadFloat(name).allFinite());
                ++loaded;
            } catch (const PackageError &e) {
                QVERIFY(std::string(e.what()).rfind(path.toStdString() + ": ", 0) == 0);
                ++rejected;
            }
        }
        QVERIFY(rejected > 100);
        QVERIFY(loaded > 0); // some edits only touch values or padding
    }
};

QTEST_APPLESS_MAIN(TestPackage)
#include "tst_package.moc"
