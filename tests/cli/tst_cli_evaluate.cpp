// glosa-cli evaluate end to end: the real binary with the shipped models and the bundled sample
// (the table, the length buckets, the differences, --json), a user's TSV and aligned files, and
// the messages for bad arguments and bad test sets; --save-history records the evaluation, which
// `history list --kind evaluation` then lists.
#include "tests/support/clirunner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = glosa::test::CliRun;

Run evaluate(const QStringList &args)
{
    return glosa::test::runGlosaCli(QStringList{QStringLiteral("evaluate")} + args);
}

QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    QFile file(dir.filePath(name));
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(file.fileName()));
    file.write(bytes);
    return file.fileName();
}

} // namespace

class TestCliEvaluate : public QObject
{
    Q_OBJECT
private slots:
    void twoModelsOnTheBundledSample()
    {
        const Run run = evaluate({"--model", "transformer-en-es", "--model", "rnn-attention-en-es",
                                  "--strategy", "greedy", "--json"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(o["test_set"].toObject()["sentences"].toInt(), 436);
        QCOMPARE(o["test_set"].toObject()["references"].toInt(), 520);
        const QJsonArray models = o["models"].toArray();
        QCOMPARE(models.size(), 2);
        for (const QJsonValue &m : models) {
            QCOMPARE(m["hypotheses"].toArray().size(), 436);
            QCOMPARE(m["decoding"].toObject()["strategy"].toString(), QStringLiteral("greedy"));
            // Real translators on their own kind of sentences: far from 0, short of 100.
            QVERIFY2(m["bleu"].toDouble() > 25 && m["bleu"].toDouble() < 80,
                     qPrintable(QString::number(m["bleu"].toDouble())));
            QVERIFY(m["chrf"].toDouble() > 40);
        }
        int sentences = 0;
        for (const QJsonValue &bucket : o["bleu_by_length"].toArray()) {
            sentences += bucket["sentences"].toInt();
            QCOMPARE(bucket["bleu"].toArray().size(), 2);
        }
        QCOMPARE(sentences, 436);
        QCOMPARE(o["differences"].toArray().size(), 436);
        QCOMPARE(o["bleu_by_length"].toArray()[0].toObject()["first_words"].toInt(), 1);
        QCOMPARE(o["bleu_by_length"].toArray()[0].toObject()["last_words"].toInt(), 5);
    }

    // Bahdanau et al.'s claim, on the models that ship: without attention, BLEU falls with sentence
    // length faster than with it (Bahdanau et al. 2015, Fig. 2). The three RNNs differ only in
    // their attention; compared is each model's BLEU on 11-15-word sentences relative to its own
    // on 1-5 words (greedy on the bundled sample: 0.37 without attention, about 0.8 with).
    void theBottleneckShowsOnTheBundledSample()
    {
        const QStringList models{"rnn-noattention-en-es", "rnn-attention-en-es",
                                 "rnn-additive-en-es"};
        QStringList args;
        for (const QString &m : models)
            args << "--model" << m;
        const Run run = evaluate(args + QStringList{"--strategy", "greedy", "--json"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonArray buckets =
            QJsonDocument::fromJson(run.out).object()["bleu_by_length"].toArray();
        QJsonArray shortest, longer;
        for (const QJsonValue &b : buckets) {
            if (b["first_words"].toInt() == 1)
                shortest = b["bleu"].toArray();
            else if (b["first_words"].toInt() == 11)
                longer = b["bleu"].toArray();
        }
        QCOMPARE(shortest.size(), 3);
        QCOMPARE(longer.size(), 3);
        double kept[3];
        for (int i = 0; i < 3; ++i) {
            QVERIFY(shortest[i].toDouble() > 20);
            kept[i] = longer[i].toDouble() / shortest[i].toDouble();
        }
        const QString ratios = QStringLiteral("none %1, Luong %2, Bahdanau %3")
                                   .arg(kept[0], 0, 'f', 2)
                                   .arg(kept[1], 0, 'f', 2)
                                   .arg(kept[2], 0, 'f', 2);
        QVERIFY2(kept[0] + 0.2 < kept[1] && kept[0] + 0.2 < kept[2], qPrintable(ratios));
    }

    void tableForPeople()
    {
        const Run run = evaluate({"--model", "transformer-en-es", "--model", "rnn-attention-en-es",
                                  "--strategy", "greedy", "--bucket-width", "10",
                                  "--differences", "1"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QString out = QString::fromUtf8(run.out);
        QVERIFY2(out.contains("436 sentences, 520 references"), qPrintable(out));
        QVERIFY(out.contains("BLEU by source length"));
        QVERIFY(out.contains("\n1-10 "));
        QVERIFY(out.contains("Where transformer-en-es does better than rnn-attention-en-es:"));
        QVERIFY(out.contains("Where rnn-attention-en-es does better than transformer-en-es:"));
    }

    void userFiles()
    {
        QTemporaryDir dir;
        const QString tsv = write(dir, "set.tsv",
                                  "# columns: es en\n"
                                  "Me gusta el café.\tI like coffee.\n"
                                  "¿Dónde está la estación?\tWhere is the station?\n");
        // The comment names the columns: an en→es model reads the second one.
        Run run = evaluate({"--model", "transformer-en-es", "--test-set", tsv, "--json"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QJsonObject o = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(o["test_set"].toObject()["sentences"].toInt(), 2);
        QVERIFY(o["models"].toArray()[0].toObject()["hypotheses"].toArray()[0].toString().contains("caf"));

        const QString src = write(dir, "news.en", "I like coffee.\nThe cat sleeps.\n");
        const QString ref = write(dir, "news.es", "Me gusta el café.\nEl gato duerme.\n");
        run = evaluate({"--model", "transformer-en-es", "--source", src, "--reference", ref});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY(run.out.contains("(2 sentences, 2 references)"));
    }

    void saveHistory()
    {
        QTemporaryDir dir;
        const QString tsv = write(dir, "kitchen.tsv",
                                  "I like coffee.\tMe gusta el café.\n"
                                  "Where is the station?\t¿Dónde está la estación?\n"
                                  "Tom is reading.\tTom está leyendo.\n");
        const QString db = dir.filePath("history.sqlite");
        const Run run = glosa::test::runGlosaCli(
            {"--history", db, "evaluate", "--model", "transformer-en-es", "--model",
             "rnn-attention-en-es", "--strategy", "greedy", "--test-set", tsv, "--json",
             "--save-history"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonArray models = QJsonDocument::fromJson(run.out).object()["models"].toArray();
        QCOMPARE(models.size(), 2);

        Run list = glosa::test::runGlosaCli(
            {"--history", db, "history", "list", "--kind", "evaluation"});
        QVERIFY2(list.exitCode == 0, list.err.constData());
        const QStringList lines =
            QString::fromUtf8(list.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1);
        const QString expected =
            QStringLiteral("\tevaluation\ttransformer-en-es\t%1\t"
                           "transformer-en-es  BLEU %2  chrF2 %3")
                // the test set's name is its path; then every model
                .arg(tsv + QStringLiteral(" · transformer-en-es, rnn-attention-en-es"))
                .arg(models[0]["bleu"].toDouble(), 0, 'f', 2)
                .arg(models[0]["chrf"].toDouble(), 0, 'f', 2);
        QVERIFY2(lines[0].contains(expected), qPrintable(lines[0]));
        // The search finds it by the second model's id; no translation goes into a TMX.
        list = glosa::test::runGlosaCli({"--history", db, "history", "search", "rnn-attention"});
        QVERIFY2(list.out.contains("\tevaluation\t"), list.out.constData());
        list = glosa::test::runGlosaCli({"--history", db, "history", "list", "--kind", "document"});
        QVERIFY2(list.exitCode == 0 && list.out.trimmed().isEmpty(), list.out.constData());
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("pairs differ") << QStringList{"--model", "transformer-en-es", "--model",
                                                     "transformer-es-en"}
                                      << 2 << "compare models of one language pair";
        QTest::newRow("source alone") << QStringList{"--source", "a.txt"} << 2
                                      << "--source and --reference go together";
        QTest::newRow("bucket width") << QStringList{"--bucket-width", "0"} << 2
                                      << "--bucket-width must be";
        QTest::newRow("missing file") << QStringList{"--model", "transformer-en-es", "--test-set",
                                                     "/nonexistent/set.tsv"}
                                      << 1 << "cannot open /nonexistent/set.tsv";
        QTest::newRow("unknown model") << QStringList{"--model", "no-such-model"} << 1
                                       << "no-such-model";
    }
    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run run = evaluate(args);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    void badTestSetNamesTheLine()
    {
        QTemporaryDir dir;
        const QString tsv = write(dir, "bad.tsv", "a\tb\nno tab here\n");
        const Run run = evaluate({"--model", "transformer-en-es", "--test-set", tsv});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("bad.tsv:2: expected two columns"), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliEvaluate)
#include "tst_cli_evaluate.moc"
