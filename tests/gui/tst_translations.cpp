// The UI translations are complete: lupdate is run over app/ (no engine file) the way the
// glosa_gui_lupdate target runs it, and every string it finds must have a finished translation in
// each committed translations/glosa_<code>.ts, with the same placeholders and a keyboard
// accelerator where the English has one. A string added with tr() and not translated fails here,
// naming it.
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

namespace {

struct Message
{
    QString context;
    QString source;
    QString comment; // disambiguation: two messages may share context and source
    bool numerus = false;
    QString type; // of <translation>: "" (finished), unfinished, vanished, obsolete
    QStringList forms; // the translation, or its <numerusform>s
    QString key() const { return context + QChar(0) + source + QChar(0) + comment; }
};

struct TsFile
{
    QString language;
    QList<Message> messages;
};

// Reads a Qt Linguist .ts file; an empty language and no messages when it cannot be parsed.
TsFile readTs(const QString &path, QString *error)
{
    TsFile ts;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return ts;
    }
    QXmlStreamReader xml(&file);
    QString context;
    Message message;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const auto name = xml.name();
        if (name == QLatin1String("TS")) {
            ts.language = xml.attributes().value(QLatin1String("language")).toString();
        } else if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            message = Message{context, {}, {},
                              xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes")};
        } else if (name == QLatin1String("source")) {
            message.source = xml.readElementText();
        } else if (name == QLatin1String("comment")) {
            message.comment = xml.readElementText();
        } else if (name == QLatin1String("translation")) {
            message.type = xml.attributes().value(QLatin1String("type")).toString();
            if (!message.numerus) {
                message.forms << xml.readElementText();
                ts.messages << message;
            } else {
                // <numerusform>s until </translation>.
                while (xml.readNextStartElement())
                    message.forms << xml.readElementText();
                ts.messages << message;
            }
        }
    }
    if (xml.hasError())
        *error = QStringLiteral("%1:%2: %3").arg(path).arg(xml.lineNumber()).arg(xml.errorString());
    return ts;
}

// %1..%9 and %n (QString::arg and tr()'s count), as a set: a translation may reorder them.
QSet<QString> placeholders(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("%L?([1-9]|n)"));
    QSet<QString> found;
    for (auto it = re.globalMatch(text); it.hasNext();)
        found.insert(it.next().captured(1));
    return found;
}

// An '&' that makes a mnemonic: not "&&" (a literal ampersand) and not an entity like "&amp;".
bool hasAccelerator(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("&(?!&|[A-Za-z]+;|#\\d+;|\\s|$)"));
    QString withoutLiterals = text;
    withoutLiterals.remove(QStringLiteral("&&"));
    return withoutLiterals.contains(re);
}

} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
#ifdef GLOSA_LUPDATE
        const QString lupdate = QStringLiteral(GLOSA_LUPDATE);
#else
        const QString lupdate;
#endif
        if (lupdate.isEmpty() || !QFileInfo(lupdate).isExecutable())
            QSKIP(qPrintable(QStringLiteral("lupdate is not installed (%1); install "
                                            "qt6-l10n-tools").arg(lupdate)));
        QVERIFY(m_dir.isValid());
        const QString source = QStringLiteral(GLOSA_SOURCE_DIR);
        const QString fresh = m_dir.filePath(QStringLiteral("fresh.ts"));
        // The options of qt_add_translations(glosa_gui ...) in app/CMakeLists.txt.
        QProcess process;
        process.start(lupdate, {QStringLiteral("-extensions"), QStringLiteral("cpp,h"),
                                QStringLiteral("-I"), source, QStringLiteral("-no-obsolete"),
                                QStringLiteral("-locations"), QStringLiteral("none"),
                                source + QStringLiteral("/app"),
                                QStringLiteral("-ts"), fresh});
        QVERIFY(process.waitForFinished(120000));
        const QByteArray output = process.readAllStandardOutput() + process.readAllStandardError();
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0,
                 output.constData());
        QString error;
        m_sources = readTs(fresh, &error).messages;
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // app/ has hundreds of tr() strings: a handful means lupdate did not read the sources.
        QVERIFY2(m_sources.size() > 100, output.constData());
    }

    void everyStringIsTranslated_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<int>("numerusForms"); // plural forms Qt Linguist uses for the language
        QTest::newRow("Korean") << QStringLiteral("ko") << 1;
        QTest::newRow("Spanish") << QStringLiteral("es") << 2;
    }

    void everyStringIsTranslated()
    {
        QFETCH(QString, language);
        QFETCH(int, numerusForms);
        const QString path =
            QStringLiteral(GLOSA_SOURCE_DIR "/translations/glosa_%1.ts").arg(language);
        QString error;
        const TsFile ts = readTs(path, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(ts.language, language);
        QHash<QString, Message> committed;
        for (const Message &m : ts.messages)
            committed.insert(m.key(), m);

        QStringList problems;
        for (const Message &source : m_sources) {
            const QString where = QStringLiteral("%1 “%2”").arg(source.context, source.source);
            const auto it = committed.constFind(source.key());
            if (it == committed.cend()) {
                problems << where + QStringLiteral(": missing");
                continue;
            }
            const Message &m = *it;
            if (!m.type.isEmpty())
                problems << where + QStringLiteral(": marked %1").arg(m.type);
            if (m.numerus != source.numerus)
                problems << where + QStringLiteral(": numerus differs from the source");
            if (m.numerus && m.forms.size() != numerusForms)
                problems << where + QStringLiteral(": %1 plural forms, %2 expected")
                                        .arg(m.forms.size())
                                        .arg(numerusForms);
            const QSet<QString> wanted = placeholders(source.source);
            for (const QString &form : m.forms) {
                if (form.trimmed().isEmpty()) {
                    problems << where + QStringLiteral(": empty translation");
                    continue;
                }
                // A singular form may spell out the one ("una entrada") instead of using %n.
                QSet<QString> got = placeholders(form);
                QSet<QString> need = wanted;
                if (m.numerus && m.forms.size() > 1 && form == m.forms.first()) {
                    got.remove(QStringLiteral("n"));
                    need.remove(QStringLiteral("n"));
                }
                if (got != need)
                    problems << where + QStringLiteral(": placeholders of “%1” differ").arg(form);
                if (hasAccelerator(source.source) && !hasAccelerator(form))
                    problems << where + QStringLiteral(": “%1” lost the & accelerator").arg(form);
            }
        }
        QVERIFY2(problems.isEmpty(),
                 qPrintable(QStringLiteral("%1 problem(s) in %2 (run `cmake --build <build> "
                                           "--target update_translations`, then translate):\n%3")
                                .arg(problems.size())
                                .arg(path, problems.join(QLatin1Char('\n')))));
    }

    // Strings that left the sources do not linger in the .ts files (lupdate -no-obsolete drops
    // them), so a translator never works on text that is not shown.
    void noStaleEntries_data() { everyStringIsTranslated_data(); }

    void noStaleEntries()
    {
        QFETCH(QString, language);
        QString error;
        const TsFile ts = readTs(
            QStringLiteral(GLOSA_SOURCE_DIR "/translations/glosa_%1.ts").arg(language), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QSet<QString> current;
        for (const Message &m : m_sources)
            current.insert(m.key());
        QStringList stale;
        for (const Message &m : ts.messages)
            if (!current.contains(m.key()))
                stale << QStringLiteral("%1 “%2”").arg(m.context, m.source);
        QVERIFY2(stale.isEmpty(), qPrintable(stale.join(QLatin1Char('\n'))));
    }

    // lupdate reads no engine file, so the engine must mark no text for it: a label or tooltip
    // there would be left untranslated. The interface's words about the engine's tables live in
    // app/ (the decoding fields': app/core/settings/decodingfieldinfo.cpp).
    void theEngineMarksNoText()
    {
        QStringList marked;
        QDirIterator it(QStringLiteral(GLOSA_SOURCE_DIR "/engine"), {"*.cpp", "*.h"}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile file(it.next());
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
            const QByteArray text = file.readAll();
            if (text.contains("QT_TRANSLATE_NOOP") || text.contains("QT_TR_NOOP"))
                marked << file.fileName();
        }
        QVERIFY2(marked.isEmpty(), qPrintable(marked.join(u'\n')));
    }

    // The checks themselves: placeholders and accelerators are recognised where they are.
    void helpersRecogniseMarkup()
    {
        QCOMPARE(placeholders(QStringLiteral("%1 of %2, %n item(s), 50%")),
                 QSet<QString>({"1", "2", "n"}));
        QVERIFY(hasAccelerator(QStringLiteral("&File")));
        QVERIFY(hasAccelerator(QStringLiteral("파일(&F)")));
        QVERIFY(hasAccelerator(QStringLiteral("Length penalty &α:")));
        QVERIFY(!hasAccelerator(QStringLiteral("Save && quit")));
        QVERIFY(!hasAccelerator(QStringLiteral("Tom&nbsp;&amp; Jerry")));
        QVERIFY(!hasAccelerator(QStringLiteral("Files")));
    }

private:
    QTemporaryDir m_dir;
    QList<Message> m_sources;
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
