// A MarianMT model in Hugging Face format, imported by the real import code and run through the
// real translation path, against what Hugging Face transformers computed for it:
// ../shared/fixtures/marian-tiny-en-es (its README; reference.json was written by transformers
// 5.17 from the same weights). Both forms, safetensors/ and bin/ (pytorch_model.bin, read by the
// whitelisted pickle reader), must give in float32 the same source ids, the encoder's values
// within 1e-4, the first step's top-10 within 1e-4, teacher-forced log-probabilities within 1e-3,
// the same greedy output on all 12 sentences and the same beam-4 output (Hugging Face's length
// normalisation and early stopping) on at least 11; int8 the same greedy output on at least 10.
// Two more forms of the same weights must do the same: pytorch_model.bin re-saved in PyTorch's
// legacy (pre-1.6) format by torch at test time (tests/data/torch-legacy/make_legacy.py; skipped
// where /usr/bin/python3 has no torch), and the separate-vocabularies layout (a target_vocab.json,
// encoder and decoder embeddings of their own) whose decoder embedding has more rows than
// decoder_vocab_size, as transformers writes it. Skips with a message when ../shared is absent.
#include "engine/decoding/sampler.h"
#include "engine/decoding/search.h"
#include "engine/import/marianimport.h"
#include "engine/ops/rowsoftmax.h"
#include "engine/package.h"
#include "engine/safetensors.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"
#include "plugins/transformer/transformerdecoder.h"
#include "tests/support/testutil.h"

#include <nlohmann/json.hpp>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>

using namespace glosa;
using nlohmann::json;

namespace {

QString fixtureDir()
{
    return QDir::cleanPath(test::sharedDataDir() +
                           QStringLiteral("/../fixtures/marian-tiny-en-es"));
}

namespace fs = std::filesystem;

// A writable copy of the fixture's `form` folder at `to`.
void copyForm(const QString &form, const fs::path &to)
{
    fs::copy(fs::path((fixtureDir() + "/" + form).toStdString()), to);
    for (const auto &entry : fs::directory_iterator(to))
        fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
}

json readJson(const fs::path &path)
{
    std::ifstream in(path);
    return json::parse(in);
}

// The bin form with pytorch_model.bin re-saved by torch in the legacy format; an empty string
// with the reason in *why where torch is not there to do it.
std::string makeLegacyForm(const fs::path &to, QString *why)
{
    copyForm(QStringLiteral("bin"), to);
    QProcess python;
    python.start(QStringLiteral("/usr/bin/python3"),
                 {QStringLiteral(GLOSA_TEST_DATA_DIR "/torch-legacy/make_legacy.py"),
                  QStringLiteral("convert"),
                  fixtureDir() + QStringLiteral("/bin/pytorch_model.bin"),
                  QString::fromStdString((to / "pytorch_model.bin").string())});
    if (!python.waitForFinished(120000) || python.exitStatus() != QProcess::NormalExit ||
        python.exitCode() != 0) {
        *why =
            QStringLiteral("/usr/bin/python3 with torch is needed to write the legacy format (%1)")
                .arg(QString::fromUtf8(python.readAllStandardError()).trimmed().section('\n', -1));
        return {};
    }
    return to.string();
}

// The safetensors form as a model with separate vocabularies stores it: target_vocab.json,
// model.encoder.embed_tokens and model.decoder.embed_tokens instead of model.shared, the
// decoder's with three rows more than decoder_vocab_size (never used: their values are large).
std::string makeSeparateForm(const fs::path &to)
{
    copyForm(QStringLiteral("safetensors"), to);
    json config = readJson(to / "config.json");
    config["share_encoder_decoder_embeddings"] = false;
    std::ofstream(to / "config.json") << config.dump(1);
    json tokenizerConfig = readJson(to / "tokenizer_config.json");
    tokenizerConfig["separate_vocabs"] = true;
    std::ofstream(to / "tokenizer_config.json") << tokenizerConfig.dump(1);
    fs::copy_file(to / "vocab.json", to / "target_vocab.json");
    std::vector<std::pair<std::string, engine::Tensor>> tensors;
    {
        const engine::SafeTensorsFile weights((to / "model.safetensors").string());
        for (const std::string &name : weights.names()) {
            engine::Tensor w = weights.loadFloat(name);
            if (name != "model.shared.weight") {
                tensors.emplace_back(name, std::move(w));
                continue;
            }
            engine::Tensor decoder({w.dim(0) + 3, w.dim(1)});
            std::copy(w.data<float>(), w.data<float>() + w.numel(), decoder.data<float>());
            std::fill(decoder.data<float>() + w.numel(), decoder.data<float>() + decoder.numel(),
                      50.0f);
            tensors.emplace_back("model.decoder.embed_tokens.weight", std::move(decoder));
            tensors.emplace_back("model.encoder.embed_tokens.weight", std::move(w));
        }
    }
    engine::writeSafeTensors((to / "model.safetensors").string(), tensors, {{"format", "pt"}});
    return to.string();
}

std::vector<std::int32_t> ints(const json &array)
{
    return array.get<std::vector<std::int32_t>>();
}

struct Loaded
{
    std::shared_ptr<engine::TranslationModel> model;
    transformer::TransformerDecoder *decoder = nullptr;
};

Loaded load(const std::string &folder)
{
    const auto package = engine::ModelPackage::load(folder);
    auto decoder = std::make_unique<transformer::TransformerDecoder>(package);
    Loaded loaded;
    loaded.decoder = decoder.get();
    loaded.model = std::make_shared<engine::TranslationModel>(package, std::move(decoder));
    return loaded;
}

// HF's generated ids start with the decoder start token (<pad>) and end with </s>.
std::vector<std::int32_t> withStartAndEnd(const engine::Hypothesis &h, std::int32_t start,
                                          std::int32_t end)
{
    std::vector<std::int32_t> ids{start};
    ids.insert(ids.end(), h.tokens.begin(), h.tokens.end());
    if (h.endedWithEos)
        ids.push_back(end);
    return ids;
}

} // namespace

class TestParityMarian : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_models;
    json m_reference;

    QTemporaryDir m_forms; // the forms made from the fixture's
    std::map<QString, std::string> m_madeForms;
    QString m_noLegacyForm; // why the legacy form could not be made

    // The folder of `form`: one of the fixture's, or one made from them (initTestCase).
    std::string sourceOf(const QString &form) const
    {
        const auto made = m_madeForms.find(form);
        return made != m_madeForms.end() ? made->second : (fixtureDir() + "/" + form).toStdString();
    }

    void skipUnmade(const QString &form)
    {
        if (form == QLatin1String("legacy") && !m_madeForms.count(form))
            QSKIP(qPrintable(m_noLegacyForm));
    }

    std::string imported(const QString &form, bool int8)
    {
        const QString id = form + (int8 ? QStringLiteral("-int8") : QStringLiteral("-f32"));
        const QString folder = m_models.filePath(id);
        if (!QFileInfo::exists(folder)) {
            engine::MarianImportOptions options;
            options.int8 = int8;
            options.id = id.toStdString();
            engine::importMarian(sourceOf(form), m_models.path().toStdString(), options);
        }
        return folder.toStdString();
    }

    std::vector<engine::Hypothesis> translateAll(engine::TranslationModel &model,
                                                 const engine::DecodingOptions &options)
    {
        engine::Translator translator(
            std::shared_ptr<engine::TranslationModel>(&model, [](auto *) {}));
        std::vector<engine::Hypothesis> out;
        for (const json &c : m_reference["cases"]) {
            const auto result = translator.translate(c["source"].get<std::string>(), options);
            if (result.segments.size() != 1 || result.segments[0].hypotheses.empty())
                return {};
            out.push_back(result.segments[0].hypotheses[0]);
        }
        return out;
    }

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists(fixtureDir() + "/reference.json"))
            QSKIP(qPrintable(QStringLiteral("the MarianMT fixture %1 is absent (it lives in "
                                            "../shared)")
                                 .arg(fixtureDir())));
        QVERIFY(m_models.isValid());
        std::ifstream in((fixtureDir() + "/reference.json").toStdString());
        m_reference = json::parse(in);
        QCOMPARE(m_reference["cases"].size(), std::size_t(12));
        const fs::path forms = m_forms.path().toStdString();
        m_madeForms[QStringLiteral("separate")] = makeSeparateForm(forms / "separate");
        const std::string legacy = makeLegacyForm(forms / "legacy", &m_noLegacyForm);
        if (!legacy.empty())
            m_madeForms[QStringLiteral("legacy")] = legacy;
    }

    void importRecordsTheArchitecture()
    {
        const std::string folder = imported(QStringLiteral("safetensors"), false);
        std::ifstream in(folder + "/model.json");
        const json manifest = json::parse(in);
        const json &h = manifest["hyperparameters"];
        QCOMPARE(h["normalization"], json("post-norm"));
        QCOMPARE(h["activation"], json("swish"));
        QCOMPARE(h["positional_encoding"], json("sinusoidal-halves"));
        QCOMPARE(h["embedding_scale"], json("sqrt(d_model)"));
        QCOMPARE(h["decoder_start_id"], json(5705));
        QCOMPARE(h["never_generate"], json::array({5705}));
        QCOMPARE(h["output_bias"], json(true));
        QCOMPARE(manifest["languages"]["source"], json("en"));
        QCOMPARE(manifest["languages"]["target"], json("es"));
        QCOMPARE(manifest["decoding"]["beam_size"], json(4));
        QCOMPARE(manifest["decoding"]["length_normalization"], json("power"));
        QCOMPARE(manifest["imported_from"]["weights"], json("model.safetensors"));
        QVERIFY(!manifest.contains("compute_type"));
        // Nothing but the package is left in the destination (no staging folder).
        const QStringList left =
            QDir(m_models.path()).entryList(QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot);
        for (const QString &name : left)
            QVERIFY2(!name.startsWith('.'), qPrintable(name));
    }

    void parity_data()
    {
        QTest::addColumn<QString>("form");
        QTest::newRow("safetensors") << QStringLiteral("safetensors");
        QTest::newRow("pytorch_model.bin") << QStringLiteral("bin");
        QTest::newRow("pytorch_model.bin, legacy format") << QStringLiteral("legacy");
        QTest::newRow("separate vocabularies, more decoder rows") << QStringLiteral("separate");
    }
    void parity()
    {
        QFETCH(QString, form);
        skipUnmade(form);
        Loaded loaded = load(imported(form, false));
        engine::TranslationModel &model = *loaded.model;
        transformer::TransformerDecoder &decoder = *loaded.decoder;
        const std::int32_t pad = m_reference["pad_token_id"], eos = m_reference["eos_token_id"];
        QCOMPARE(decoder.startToken(), pad);
        QCOMPARE(decoder.endToken(), eos);

        double worstEncoder = 0, worstFirst = 0, worstForced = 0;
        for (const json &c : m_reference["cases"]) {
            const std::string source = c["source"];
            // Pieces and ids: source.spm's pieces mapped through vocab.json, then </s>.
            std::vector<std::string> pieces;
            std::vector<std::int32_t> ids;
            for (const engine::Token &token : model.sourceTokenizer().encode(source)) {
                pieces.push_back(token.piece);
                ids.push_back(token.id);
            }
            ids.push_back(model.sourceTokenizer().eosId());
            QCOMPARE(pieces, c["source_pieces"].get<std::vector<std::string>>());
            QCOMPARE(ids, ints(c["input_ids"]));

            const engine::Tensor memory = decoder.encoderOutput(ids);
            const std::vector<float> expected = c["encoder_out_first_row"];
            for (std::size_t i = 0; i < expected.size(); ++i)
                worstEncoder = std::max(worstEncoder,
                                        double(std::fabs(memory.data<float>()[i] - expected[i])));

            // Teacher forcing along HF's greedy output; its first step is the top-10 check.
            const std::vector<std::int32_t> greedy = ints(c["greedy"]["ids"]);
            const std::vector<float> forced = c["greedy"]["token_logprobs"];
            auto state = decoder.encode({ids});
            engine::Tensor last({1}, engine::DType::I32), logProbs, attention;
            for (std::size_t t = 0; t + 1 < greedy.size(); ++t) {
                last.data<std::int32_t>()[0] = greedy[t];
                decoder.step(*state, last, logProbs, attention);
                const float *row = logProbs.data<float>();
                if (t == 0) {
                    std::vector<std::int32_t> order(logProbs.dim(1));
                    std::iota(order.begin(), order.end(), 0);
                    std::partial_sort(order.begin(), order.begin() + 10, order.end(),
                                      [&](int a, int b) { return row[a] > row[b]; });
                    order.resize(10);
                    QCOMPARE(order, ints(c["first_step_top10"]["ids"]));
                    const std::vector<float> top = c["first_step_top10"]["logprobs"];
                    for (int k = 0; k < 10; ++k)
                        worstFirst =
                            std::max(worstFirst, double(std::fabs(row[order[k]] - top[k])));
                }
                worstForced =
                    std::max(worstForced, double(std::fabs(row[greedy[t + 1]] - forced[t])));
            }
        }
        qInfo("%s: worst |difference| encoder %.2g, first-step top-10 %.2g, teacher-forced %.2g",
              qPrintable(form), worstEncoder, worstFirst, worstForced);
        QVERIFY2(worstEncoder <= 1e-4, qPrintable(QString::number(worstEncoder)));
        QVERIFY2(worstFirst <= 1e-4, qPrintable(QString::number(worstFirst)));
        QVERIFY2(worstForced <= 1e-3, qPrintable(QString::number(worstForced)));

        // Greedy and beam 4 through the Translator (text in, ids and text out).
        engine::DecodingOptions greedyOptions;
        greedyOptions.maxLength = 60; // max_new_tokens
        const auto greedy = translateAll(model, greedyOptions);
        QCOMPARE(greedy.size(), std::size_t(12));
        engine::DecodingOptions beamOptions = greedyOptions;
        beamOptions.strategy = engine::SearchStrategy::Beam;
        beamOptions.beamSize = 4;
        beamOptions.lengthNormalization = engine::LengthNormalization::Power;
        beamOptions.lengthPenalty = 1.0f;
        beamOptions.earlyStopping = engine::EarlyStopping::Beam;
        const auto beam = translateAll(model, beamOptions);
        QCOMPARE(beam.size(), std::size_t(12));
        int greedySame = 0, beamSame = 0;
        for (std::size_t i = 0; i < 12; ++i) {
            const json &c = m_reference["cases"][i];
            const bool g = withStartAndEnd(greedy[i], pad, eos) == ints(c["greedy"]["ids"]);
            const bool b = withStartAndEnd(beam[i], pad, eos) == ints(c["beam4"]["ids"]);
            greedySame += g;
            beamSame += b;
            if (!g || !b)
                qInfo("%s sentence %zu differs (greedy %s, beam %s): %s", qPrintable(form), i,
                      g ? "same" : "differs", b ? "same" : "differs",
                      c["source"].get<std::string>().c_str());
            if (!b) {
                const double ours = beam[i].score;
                qInfo("  beam: ours scored %.6f, transformers' output %.6f", ours,
                      c["beam4"]["sequence_score"].get<double>());
            }
        }
        qInfo("%s: greedy %d/12, beam-4 %d/12 identical to transformers", qPrintable(form),
              greedySame, beamSame);
        QCOMPARE(greedySame, 12);
        QVERIFY2(beamSame >= 11, qPrintable(QString::number(beamSame)));
        // The text as MarianTokenizer.decode(skip_special_tokens=True) gives it.
        engine::Translator translator(loaded.model);
        QCOMPARE(translator
                     .translate(m_reference["cases"][1]["source"].get<std::string>(), greedyOptions)
                     .text,
                 m_reference["cases"][1]["greedy"]["text"].get<std::string>());
    }

    void int8Greedy_data() { parity_data(); }
    void int8Greedy()
    {
        QFETCH(QString, form);
        skipUnmade(form);
        Loaded loaded = load(imported(form, true));
        QCOMPARE(engine::ModelPackage::load(imported(form, true)).computeType(),
                 engine::ComputeType::Int8);
        engine::DecodingOptions options;
        options.maxLength = 60;
        const auto greedy = translateAll(*loaded.model, options);
        QCOMPARE(greedy.size(), std::size_t(12));
        int same = 0;
        for (std::size_t i = 0; i < 12; ++i)
            same += withStartAndEnd(greedy[i], m_reference["pad_token_id"],
                                    m_reference["eos_token_id"]) ==
                    ints(m_reference["cases"][i]["greedy"]["ids"]);
        qInfo("%s int8: greedy %d/12 identical to transformers' float32", qPrintable(form), same);
        QVERIFY2(same >= 10, qPrintable(QString::number(same)));
    }

    // A greedy search without sampling or traces reads TransformerDecoder::stepLogits, which
    // never writes the [rows, vocab] log-probabilities: each row's log-softmax computed from them
    // must be step()'s bit for bit at every step of a batch (fp32 and int8), so must the argmax
    // and its value taken without writing the row, and a whole greedy decode (with and without
    // a processor) must equal one that writes the rows (a trace forces them).
    void logitsStepEqualsFullStep_data()
    {
        QTest::addColumn<bool>("int8");
        QTest::newRow("float32") << false;
        QTest::newRow("int8") << true;
    }
    void logitsStepEqualsFullStep()
    {
        QFETCH(bool, int8);
        Loaded loaded = load(imported(QStringLiteral("safetensors"), int8));
        transformer::TransformerDecoder &decoder = *loaded.decoder;
        QVERIFY(decoder.hasStepLogits());
        std::vector<std::vector<std::int32_t>> sources;
        for (const json &c : m_reference["cases"])
            sources.push_back(ints(c["input_ids"]));
        auto full = decoder.encode(sources), lazy = decoder.encode(sources);
        const auto rows = static_cast<std::int64_t>(sources.size());
        const std::int64_t vocab = decoder.vocabularySize();
        engine::Tensor last = engine::Tensor::fromInts(
            {rows}, std::vector<std::int32_t>(rows, decoder.startToken()));
        engine::Tensor logProbs, attention, logits, norms, lazyAttention;
        std::vector<float> written(vocab);
        // rowReady sees each row once, already final: its argmax then is the argmax after.
        std::vector<int> calls(rows);
        std::vector<std::int32_t> early(rows);
        const engine::StepDecoder::RowReady rowReady = [&](std::int64_t r) {
            ++calls[r];
            const engine::ops::RowNormalizer norm{norms.data<float>()[2 * r],
                                                  norms.data<float>()[2 * r + 1]};
            float best = 0.0f;
            early[r] = engine::ops::bestOfRow(logits.data<float>() + r * vocab, vocab, norm, &best);
        };
        for (int t = 0; t < 12; ++t) {
            decoder.step(*full, last, logProbs, attention);
            std::fill(calls.begin(), calls.end(), 0);
            decoder.stepLogits(*lazy, last, logits, norms, lazyAttention, &rowReady);
            QCOMPARE(calls, std::vector<int>(rows, 1));
            QCOMPARE(norms.shape(), (engine::Shape{rows, 2}));
            for (std::int64_t r = 0; r < rows; ++r) {
                const float *expected = logProbs.data<float>() + r * vocab;
                const float *x = logits.data<float>() + r * vocab;
                const engine::ops::RowNormalizer norm{norms.data<float>()[2 * r],
                                                      norms.data<float>()[2 * r + 1]};
                engine::ops::logSoftmaxRow(x, vocab, norm, written.data());
                QVERIFY(std::equal(written.begin(), written.end(), expected)); // exactly
                const std::int32_t token =
                    engine::BestSampler::sample({expected, static_cast<std::size_t>(vocab)});
                float best = 0.0f;
                QCOMPARE(engine::ops::bestOfRow(x, vocab, norm, &best), token);
                QVERIFY(best == expected[token]); // exactly (QCOMPARE on floats is fuzzy)
                QCOMPARE(early[r], token);
                last.data<std::int32_t>()[r] = token;
            }
            QVERIFY(std::equal(attention.data<float>(), attention.data<float>() + attention.numel(),
                               lazyAttention.data<float>()));
        }

        // Suppressed tokens that greedy would choose (the first and third token of the first
        // unsuppressed decode), listed twice and out of order, so that the argmax without them
        // and the renormalised log-probability are both exercised; a processor that is more than
        // suppression (min length) keeps the written row.
        std::vector<std::int32_t> chosen;
        for (int variant = 0; variant < 3; ++variant) {
            engine::DecodingOptions options;
            options.maxLength = 60;
            if (variant >= 1)
                options.suppressTokens = {5, chosen.at(2), chosen.at(0), 7, chosen.at(2)};
            if (variant == 2)
                options.minLength = 3;
            const auto fast = engine::decode(decoder, sources, options);
            options.trace = true;
            const auto slow = engine::decode(decoder, sources, options);
            if (variant == 0)
                chosen = fast[0].hypotheses[0].tokens;
            else
                QVERIFY(fast[0].hypotheses[0].tokens != chosen); // the suppression bites
            for (std::size_t i = 0; i < sources.size(); ++i) {
                const engine::Hypothesis &a = fast[i].hypotheses[0], &b = slow[i].hypotheses[0];
                QCOMPARE(a.tokens, b.tokens);
                QVERIFY(a.tokenLogProbs == b.tokenLogProbs); // exactly: QCOMPARE is fuzzy
                QVERIFY(a.logProb == b.logProb && a.eosLogProb == b.eosLogProb);
                QVERIFY(a.score == b.score);
            }
        }
    }

    // Beam search chooses its candidates from stepLogits' logits and normalisers unless it
    // traces; the trace's decodes write every row (step()). Both must give the same hypotheses,
    // bit for bit, with and without processors and with a coverage penalty (which reads the
    // attention).
    void lazyBeamEqualsFullBeam_data() { logitsStepEqualsFullStep_data(); }
    void lazyBeamEqualsFullBeam()
    {
        QFETCH(bool, int8);
        Loaded loaded = load(imported(QStringLiteral("safetensors"), int8));
        transformer::TransformerDecoder &decoder = *loaded.decoder;
        std::vector<std::vector<std::int32_t>> sources;
        for (const json &c : m_reference["cases"])
            sources.push_back(ints(c["input_ids"]));
        int compared = 0;
        for (int variant = 0; variant < 3; ++variant) {
            engine::DecodingOptions options;
            options.strategy = engine::SearchStrategy::Beam;
            options.beamSize = 4;
            options.nBest = 4;
            options.maxLength = 40;
            options.lengthNormalization = engine::LengthNormalization::Gnmt;
            options.lengthPenalty = 0.6f;
            if (variant >= 1)
                options.suppressTokens = {5, 7};
            if (variant == 2) {
                options.coveragePenalty = 0.2f;
                options.noRepeatNgramSize = 2;
            }
            const auto fast = engine::decode(decoder, sources, options);
            options.trace = true;
            const auto slow = engine::decode(decoder, sources, options);
            QCOMPARE(fast.size(), slow.size());
            for (std::size_t i = 0; i < sources.size(); ++i) {
                QCOMPARE(fast[i].hypotheses.size(), slow[i].hypotheses.size());
                for (std::size_t k = 0; k < fast[i].hypotheses.size(); ++k) {
                    const engine::Hypothesis &a = fast[i].hypotheses[k], &b = slow[i].hypotheses[k];
                    QCOMPARE(a.tokens, b.tokens);
                    QCOMPARE(a.tokenLogProbs, b.tokenLogProbs); // std::vector ==: exactly
                    QVERIFY(a.logProb == b.logProb);
                    QVERIFY(a.score == b.score);
                    QVERIFY(a.eosLogProb == b.eosLogProb);
                    QCOMPARE(a.endedWithEos, b.endedWithEos);
                    QCOMPARE(a.attention.shape(), b.attention.shape());
                    QVERIFY(std::equal(a.attention.data<float>(),
                                       a.attention.data<float>() + a.attention.numel(),
                                       b.attention.data<float>()));
                    ++compared;
                }
            }
        }
        QVERIFY(compared >= 3 * 12 * 4);
    }
};

QTEST_GUILESS_MAIN(TestParityMarian)
#include "tst_parity_marian.moc"
