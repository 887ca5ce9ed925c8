// Hostile and broken input to the MarianMT import (engine/import/marianimport.h) and the
// pytorch_model.bin reader (engine/import/torchcheckpoint.h): each ends in a PackageError whose
// message names the problem, never a crash, a code execution or a half-written package.
// The pickle and config cases run on committed files (tests/data/hostile/marian, made by its
// make_hostile.py); the folder cases start from the MarianMT fixture in ../shared and skip
// without it.
#include "engine/import/marianimport.h"
#include "engine/import/torchcheckpoint.h"
#include "engine/package.h"
#include "tests/support/testutil.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace glosa;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

QString fixtureDir()
{
    return QDir::cleanPath(test::sharedDataDir() +
                           QStringLiteral("/../fixtures/marian-tiny-en-es"));
}

QString hostileDir()
{
    return test::testDataDir() + QStringLiteral("/hostile/marian");
}

// The message of the PackageError `f` throws ("" when it throws none).
template <typename F> QString errorOf(F &&f)
{
    try {
        f();
    } catch (const engine::PackageError &error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

json readJson(const fs::path &path)
{
    std::ifstream in(path);
    return json::parse(in);
}

void writeJson(const fs::path &path, const json &value)
{
    fs::permissions(path, fs::perms::owner_write, fs::perm_options::add);
    std::ofstream(path) << value.dump(1);
}

// A writable copy of one fixture form.
fs::path copyOf(const QString &form, const QTemporaryDir &into)
{
    const fs::path copy = fs::path(into.path().toStdString()) / "opus-mt-en-es";
    fs::copy(fs::path((fixtureDir() + "/" + form).toStdString()), copy);
    for (const auto &entry : fs::directory_iterator(copy))
        fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
    return copy;
}

void truncateFile(const fs::path &path, double keep)
{
    fs::resize_file(path, static_cast<std::uintmax_t>(fs::file_size(path) * keep));
}

} // namespace

class TestMarianImport : public QObject
{
    Q_OBJECT

private slots:
    // --- pytorch_model.bin: the whitelisted pickle reader ------------------------------------
    void hostileCheckpoint_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("message");
        QTest::newRow("GLOBAL os.system + REDUCE") << "global-os-system.bin"
                                                   << "names the global 'os.system'";
        QTest::newRow("STACK_GLOBAL builtins.eval") << "stack-global-eval.bin"
                                                    << "names the global 'builtins.eval'";
        QTest::newRow("REDUCE of a storage class")
            << "reduce-storage-class.bin"
            << "REDUCE of 'torch.FloatStorage' is not allowed";
        QTest::newRow("NEWOBJ") << "newobj.bin"
                                << "opcode 0x81";
        QTest::newRow("view past its storage") << "view-past-storage.bin"
                                               << "reaches past its storage of 4 elements";
        QTest::newRow("storage cut short") << "storage-truncated.bin"
                                           << "holds 8 bytes, fewer than 4 FloatStorage elements";
        QTest::newRow("compressed data.pkl") << "compressed.bin"
                                             << "is compressed";
        QTest::newRow("pre-1.6 format cut short") << "legacy-format.bin"
                                                  << "a truncated file?";
    }
    void hostileCheckpoint()
    {
        QFETCH(QString, file);
        QFETCH(QString, message);
        const std::string path = (hostileDir() + "/" + file).toStdString();
        const QString error = errorOf([&] {
            engine::TorchCheckpoint checkpoint(path);
            for (const std::string &name : checkpoint.names())
                checkpoint.loadFloat(name);
        });
        QVERIFY2(error.contains(message), qPrintable(error));
        QVERIFY(!QFileInfo::exists(QStringLiteral("/tmp/glosa-pwned")));
    }

    void stridedViewsAreGathered_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QList<float>>("values");
        QTest::newRow("contiguous") << "valid-2x2.bin" << QList<float>{1, 2, 3, 4};
        QTest::newRow("transposed") << "transposed-2x2.bin" << QList<float>{1, 3, 2, 4};
    }
    void stridedViewsAreGathered()
    {
        QFETCH(QString, file);
        QFETCH(QList<float>, values);
        const engine::TorchCheckpoint checkpoint((hostileDir() + "/" + file).toStdString());
        QCOMPARE(checkpoint.names(), std::vector<std::string>{"w"});
        const engine::Tensor w = checkpoint.loadFloat("w");
        QCOMPARE(w.shape(), (engine::Shape{2, 2}));
        QCOMPARE(QList<float>(w.data<float>(), w.data<float>() + 4), values);
    }

    void picklesThatAreNotStateDicts_data()
    {
        QTest::addColumn<QByteArray>("pickle");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QByteArray() << "ends in the middle";
        QTest::newRow("a list") << QByteArray("\x80\x02].", 4) << "holds a list";
        QTest::newRow("memo read before written")
            << QByteArray("\x80\x02h\x05.", 5) << "memo entry 5";
        QTest::newRow("string longer than the stream")
            << QByteArray("\x80\x02X\xff\xff\xff\x7f", 7) << "ends in the middle";
        QTest::newRow("pop from an empty stack") << QByteArray("\x80\x02"
                                                               "0.",
                                                               4)
                                                 << "empty stack";
        QTest::newRow("text-protocol INT opcode") << QByteArray("I1\n.") << "opcode 0x49";
        QTest::newRow("a value that is not a tensor")
            << QByteArray("\x80\x02}X\x01\x00\x00\x00wK\x01s.", 14) << "expected a tensor";
        QTest::newRow("BUILD on an integer") << QByteArray("\x80\x02K\x01K\x02"
                                                           "b.",
                                                           8)
                                             << "BUILD on an integer";
    }
    void picklesThatAreNotStateDicts()
    {
        QFETCH(QByteArray, pickle);
        QFETCH(QString, message);
        const QString error = errorOf([&] {
            engine::readStateDictPickle(std::string_view(pickle.constData(), pickle.size()),
                                        "data.pkl");
        });
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    // --- config.json -------------------------------------------------------------------------
    void unsupportedConfigs_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QString>("message");
        const json marian = {{"model_type", "marian"},       {"d_model", 512},
                             {"encoder_layers", 6},          {"decoder_layers", 6},
                             {"encoder_attention_heads", 8}, {"encoder_ffn_dim", 2048},
                             {"vocab_size", 65001},          {"max_position_embeddings", 512},
                             {"pad_token_id", 65000},        {"activation_function", "swish"}};
        const auto with = [&](const json &changes) {
            json c = marian;
            c.update(changes);
            return QByteArray::fromStdString(c.dump());
        };
        for (const char *type : {"t5", "bart", "m2m_100", "nllb-moe"})
            QTest::addRow("model_type %s", type)
                << with({{"model_type", type}})
                << QStringLiteral("model_type %1 is not supported; Glosa imports MarianMT")
                       .arg(QLatin1String(type));
        QTest::newRow("no model_type") << QByteArray("{}") << "has no \"model_type\"";
        QTest::newRow("not an object") << QByteArray("[1]") << "expected a JSON object";
        QTest::newRow("d_model beyond the limit")
            << with({{"d_model", 100000}}) << "\"d_model\" is 100000, outside [2, 16384]";
        QTest::newRow("layers beyond the limit")
            << with({{"encoder_layers", 1000}}) << "\"encoder_layers\" is 1000, outside [1, 64]";
        QTest::newRow("vocabulary beyond the limit")
            << with({{"vocab_size", 1LL << 40}}) << "\"vocab_size\" is 1099511627776, outside";
        QTest::newRow("positions beyond the limit")
            << with({{"max_position_embeddings", 1 << 20}})
            << "\"max_position_embeddings\" is 1048576, outside [1, 16384]";
        QTest::newRow("a string for a size")
            << with({{"d_model", "512"}}) << "\"d_model\" is \"512\", expected an integer";
        QTest::newRow("heads that do not divide d_model")
            << with({{"encoder_attention_heads", 7}}) << "not divisible";
        QTest::newRow("an unknown activation")
            << with({{"activation_function", "mish"}}) << "not a feed-forward activation";
        QTest::newRow("pad outside the vocabulary")
            << with({{"pad_token_id", 70000}})
            << "\"pad_token_id\" is 70000, outside [0, 65000] (the target vocabulary";
        QTest::newRow("decoder heads differ")
            << with({{"decoder_attention_heads", 4}}) << "differs from encoder_attention_heads";
    }
    void unsupportedConfigs()
    {
        QFETCH(QByteArray, config);
        QFETCH(QString, message);
        const QString error = errorOf([&] {
            engine::marianHyperparameters(json::parse(config.toStdString()), "config.json");
        });
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    // --- Whole folders, from the fixture -----------------------------------------------------
    void brokenFolders_data()
    {
        QTest::addColumn<QString>("form");
        QTest::addColumn<QString>("breakage");
        QTest::addColumn<QString>("message");
        QTest::newRow("t5 config") << "safetensors"
                                   << "model_type t5"
                                   << "model_type t5 is not supported; Glosa imports MarianMT";
        QTest::newRow("no config.json") << "safetensors"
                                        << "rm config.json"
                                        << "not a Hugging Face model folder";
        QTest::newRow("no weights") << "safetensors"
                                    << "rm model.safetensors"
                                    << "has neither model.safetensors nor pytorch_model.bin";
        QTest::newRow("no vocab.json") << "safetensors"
                                       << "rm vocab.json"
                                       << "file not found";
        QTest::newRow("truncated model.safetensors") << "safetensors"
                                                     << "truncate model.safetensors"
                                                     << "model.safetensors";
        QTest::newRow("truncated pytorch_model.bin") << "bin"
                                                     << "truncate pytorch_model.bin"
                                                     << "truncated file";
        QTest::newRow("truncated vocab.json") << "safetensors"
                                              << "truncate vocab.json"
                                              << "not valid JSON";
        QTest::newRow("truncated source.spm") << "safetensors"
                                              << "truncate source.spm"
                                              << "cannot load the SentencePiece model";
        QTest::newRow("config vocabulary larger than vocab.json")
            << "safetensors"
            << "vocab_size 5800"
            << "vocabulary size mismatch: the file has 5706 pieces but config.json's vocab_size "
               "is 5800";
        QTest::newRow("vocab.json larger than the weights")
            << "bin"
            << "one more piece"
            << "vocabulary size mismatch: the weights have 5706 rows but vocab.json has 5707";
        QTest::newRow("hostile pytorch_model.bin") << "bin"
                                                   << "hostile pickle"
                                                   << "names the global 'os.system'";
    }
    void brokenFolders()
    {
        if (!QFileInfo::exists(fixtureDir()))
            QSKIP(qPrintable(fixtureDir() + " is absent (it lives in ../shared)"));
        QFETCH(QString, form);
        QFETCH(QString, breakage);
        QFETCH(QString, message);
        QTemporaryDir work, models;
        const fs::path folder = copyOf(form, work);
        const QStringList words = breakage.split(' ');
        if (words[0] == "rm") {
            fs::remove(folder / words[1].toStdString());
        } else if (words[0] == "truncate") {
            truncateFile(folder / words[1].toStdString(), 0.5);
        } else if (breakage == "model_type t5" || breakage == "vocab_size 5800") {
            json config = readJson(folder / "config.json");
            if (breakage == "vocab_size 5800")
                config["vocab_size"] = config["decoder_vocab_size"] = 5800;
            else
                config["model_type"] = "t5";
            writeJson(folder / "config.json", config);
        } else if (breakage == "one more piece") {
            json vocab = readJson(folder / "vocab.json");
            vocab["▁extra-piece"] = 5706;
            writeJson(folder / "vocab.json", vocab);
            json config = readJson(folder / "config.json");
            config["vocab_size"] = config["decoder_vocab_size"] = 5707;
            writeJson(folder / "config.json", config);
        } else if (breakage == "hostile pickle") {
            fs::copy_file((hostileDir() + "/global-os-system.bin").toStdString(),
                          folder / "pytorch_model.bin", fs::copy_options::overwrite_existing);
        }
        const QString error =
            errorOf([&] { engine::importMarian(folder.string(), models.path().toStdString()); });
        QVERIFY2(error.contains(message), qPrintable(error));
        // Atomic: nothing left in the destination, not even a staging folder.
        QCOMPARE(QDir(models.path())
                     .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot)
                     .size(),
                 0);
    }

    void cancelledImportLeavesNothing()
    {
        if (!QFileInfo::exists(fixtureDir()))
            QSKIP(qPrintable(fixtureDir() + " is absent (it lives in ../shared)"));
        QTemporaryDir models;
        engine::MarianImportOptions options;
        int calls = 0;
        double last = -1;
        options.progress = [&](double fraction) {
            QVERIFY(fraction >= last);
            last = fraction;
        };
        options.cancelled = [&] { return ++calls > 20; };
        const QString error = errorOf([&] {
            engine::importMarian((fixtureDir() + "/bin").toStdString(), models.path().toStdString(),
                                 options);
        });
        QVERIFY2(error.contains("cancelled"), qPrintable(error));
        QVERIFY(last > 0 && last < 1);
        QCOMPARE(QDir(models.path())
                     .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot)
                     .size(),
                 0);
    }

    void existingPackageIsKept()
    {
        if (!QFileInfo::exists(fixtureDir()))
            QSKIP(qPrintable(fixtureDir() + " is absent (it lives in ../shared)"));
        QTemporaryDir models;
        const std::string source = (fixtureDir() + "/safetensors").toStdString();
        const engine::MarianImport first =
            engine::importMarian(source, models.path().toStdString());
        QCOMPARE(first.id, std::string("marian-en-es"));
        QCOMPARE(engine::ModelPackage::load(first.folder).computeType(), engine::ComputeType::Int8);
        const auto before = fs::last_write_time(fs::path(first.folder) / "model.json");
        const QString error =
            errorOf([&] { engine::importMarian(source, models.path().toStdString()); });
        QVERIFY2(error.contains("already exists"), qPrintable(error));
        QCOMPARE(fs::last_write_time(fs::path(first.folder) / "model.json"), before);
        QCOMPARE(
            QDir(models.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
            QStringList{QStringLiteral("marian-en-es")});
    }
};

QTEST_GUILESS_MAIN(TestMarianImport)
#include "tst_marianimport.moc"
