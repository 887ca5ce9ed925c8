// The Tokenizer with a MarianMT vocabulary (engine/text/tokenizer.h, the second constructor) does
// what Hugging Face's MarianTokenizer does where a SentencePiece model alone would not: a
// vocabulary piece the target SentencePiece model lacks (a piece of the other language in a joint
// vocabulary) decodes without its "▁", and a leading ">>xxx<<" language code is one token.
// The vocabulary here is tests/data/spm/spm.model's pieces plus a few it lacks.
#include "engine/text/languagecodes.h"
#include "engine/text/tokenizer.h"
#include "tests/support/testutil.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace glosa;

class TestMarianTokenizer : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<engine::Tokenizer> m_tokenizer;

    int id(const std::string &piece) const { return m_tokenizer->pieceToId(piece); }

private slots:
    void initTestCase()
    {
        const std::string spm = (test::testDataDir() + "/spm/spm.model").toStdString();
        const engine::Tokenizer plain(spm);
        nlohmann::json vocabulary = nlohmann::json::object();
        for (int i = 0; i < plain.vocabSize(); ++i)
            vocabulary[plain.idToPiece(i)] = i;
        int next = plain.vocabSize();
        for (const char *extra : {"\xe2\x96\x81zebra", ">>fra<<", ">>spa<<"})
            vocabulary[extra] = next++;
        const std::string path = m_dir.filePath(QStringLiteral("vocab.json")).toStdString();
        std::ofstream(path) << vocabulary.dump();
        m_tokenizer = std::make_unique<engine::Tokenizer>(spm, path);
        QCOMPARE(m_tokenizer->vocabSize(), plain.vocabSize() + 3);
    }

    // MarianTokenizer.convert_tokens_to_string: SentencePiece returns an unknown piece verbatim,
    // then every "▁" becomes a space and the ends are stripped.
    void pieceUnknownToSentencePieceDecodesWithoutItsMark()
    {
        const std::vector<int> ids{id("\xe2\x96\x81Ha"), id("ce"), id("\xe2\x96\x81zebra"),
                                   id("\xe2\x96\x81"
                                      "bu"),
                                   id("en")};
        QCOMPARE(QString::fromStdString(m_tokenizer->decode(ids)),
                 QStringLiteral("Hace zebra buen"));
        QCOMPARE(m_tokenizer->decode({id("\xe2\x96\x81zebra"), id("\xe2\x96\x81Ha"), id("ce")}),
                 std::string("zebra Hace"));
        // The detokeniser locates it as it locates any piece.
        const engine::Detokenized d = engine::detokenize(*m_tokenizer, ids);
        QCOMPARE(d.text, std::string("Hace zebra buen"));
        QCOMPARE(d.tokens[2].bytes.begin, std::size_t(5));
        QCOMPARE(d.tokens[2].bytes.end, std::size_t(10));
    }

    // MarianTokenizer: a code at the start is one vocabulary token; SentencePiece gets the rest.
    void leadingLanguageCodeIsOneToken()
    {
        const std::string text = ">>fra<< Hace buen tiempo";
        const std::vector<engine::Token> tokens = m_tokenizer->encode(text);
        QVERIFY(tokens.size() > 2);
        QCOMPARE(tokens[0].piece, std::string(">>fra<<"));
        QCOMPARE(tokens[0].id, id(">>fra<<"));
        QCOMPARE(tokens[0].bytes.end, std::size_t(7));
        // The rest as SentencePiece splits it alone, its ranges in the whole text.
        const std::vector<engine::Token> rest = m_tokenizer->encode(text.substr(8));
        QCOMPARE(tokens.size(), rest.size() + 1);
        for (std::size_t i = 0; i < rest.size(); ++i) {
            QCOMPARE(tokens[i + 1].id, rest[i].id);
            QCOMPARE(tokens[i + 1].bytes.begin, rest[i].bytes.begin + 8);
            QCOMPARE(tokens[i + 1].utf16.end, rest[i].utf16.end + 8);
        }
        // A code the vocabulary lacks is <unk>, still one token; one that is not at the start, or
        // not a code, is text.
        QCOMPARE(m_tokenizer->encode(">>xyz<< Hace")[0].id, m_tokenizer->unkId());
        QVERIFY(m_tokenizer->encode("Hace >>fra<<").front().piece != ">>fra<<");
        QVERIFY(m_tokenizer->encode(">> fra<< Hace").front().piece != ">> fra<<");
        QCOMPARE(engine::languageCodeLength(">>pt_BR<<x"), std::size_t(9));
        QCOMPARE(engine::languageCodeLength(">><<"), std::size_t(0));
        // A plain SentencePiece tokenizer (our own models) has no such tokens.
        const engine::Tokenizer plain((test::testDataDir() + "/spm/spm.model").toStdString());
        QVERIFY(plain.encode(">>fra<< Hace").front().piece != ">>fra<<");
    }

    // ISO 639-1 and 639-3 both ways (ICU's tables), and the languages of OPUS-MT's codes.
    void languageCodes_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("two");
        QTest::addColumn<QString>("three");
        QTest::addColumn<QString>("tag");
        QTest::newRow("fr") << "fr"
                            << "fr"
                            << "fra"
                            << "fr";
        QTest::newRow("fra") << "fra"
                             << "fr"
                             << "fra"
                             << "fr";
        QTest::newRow("spa") << "spa"
                             << "es"
                             << "spa"
                             << "es";
        QTest::newRow("pt") << "pt"
                            << "pt"
                            << "por"
                            << "pt";
        QTest::newRow("ron") << "ron"
                             << "ro"
                             << "ron"
                             << "ro";
        QTest::newRow("fre (bibliographic)") << "fre"
                                             << "fr"
                                             << "fre"
                                             << "fr";
        QTest::newRow("fur (no 2-letter code)") << "fur"
                                                << "fur"
                                                << "fur"
                                                << "fur";
        QTest::newRow("pt_br") << "pt_br"
                               << "pt_br"
                               << "pt_br"
                               << "pt-BR";
        QTest::newRow("zho_Hans") << "zho_Hans"
                                  << "zho_hans"
                                  << "zho_hans"
                                  << "zh-Hans";
        QTest::newRow("cmn_Hans") << "cmn_Hans"
                                  << "cmn_hans"
                                  << "cmn_hans"
                                  << "zh-Hans";
    }
    void languageCodes()
    {
        QFETCH(QString, code);
        QFETCH(QString, two);
        QFETCH(QString, three);
        QFETCH(QString, tag);
        const std::string c = code.toStdString();
        QCOMPARE(QString::fromStdString(engine::iso639_1(c)), two);
        QCOMPARE(QString::fromStdString(engine::iso639_3(c)), three);
        QCOMPARE(QString::fromStdString(engine::normalizedLanguageTag(c)), tag);
        QCOMPARE(QString::fromStdString(engine::languageOfCodeToken(">>" + c + "<<")), tag);
        QVERIFY(engine::sameLanguage(c, tag.toStdString()));
        QCOMPARE(engine::languageOfCodeToken(c), std::string());
    }
};

QTEST_GUILESS_MAIN(TestMarianTokenizer)
#include "tst_mariantokenizer.moc"
