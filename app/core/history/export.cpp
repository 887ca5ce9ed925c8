#include "app/core/history/export.h"

#include "app/core/history/store.h"
#include "app/core/platform/savefile.h"

#include <QFileDevice>
#include <QIODevice>
#include <QJsonDocument>
#include <QSet>
#include <QXmlStreamWriter>

#include <functional>

namespace glosa {

std::optional<HistoryExportFormat> historyExportFormatFromName(const QString &name)
{
    const QString n = name.toLower();
    if (n == QLatin1String("jsonl") || n == QLatin1String("jsonlines"))
        return HistoryExportFormat::JsonLines;
    if (n == QLatin1String("csv"))
        return HistoryExportFormat::Csv;
    if (n == QLatin1String("tmx"))
        return HistoryExportFormat::Tmx;
    return std::nullopt;
}

QString historyExportTargetProblem(const HistoryStore &store, const QString &path)
{
    const QString database = store.path();
    for (const char *suffix : {"", "-wal", "-shm", "-journal"})
        if (isSameFile(path, database + QLatin1String(suffix)))
            return QStringLiteral("%1 is %2 of the history being exported (%3); choose another "
                                  "file")
                .arg(path,
                     *suffix ? QStringLiteral("the %1 file").arg(QLatin1String(suffix + 1))
                             : QStringLiteral("the database"),
                     database);
    return {};
}

namespace {

[[noreturn]] void writeFailed(const QIODevice &device)
{
    QString name;
    if (const auto *file = qobject_cast<const QFileDevice *>(&device))
        name = file->fileName();
    else if (const auto *file = dynamic_cast<const SaveFile *>(&device))
        name = file->fileName();
    // The system's reason in the message itself: "No space left on device" is what the user
    // can act on.
    throw HistoryError(
        HistoryError::Code::Io,
        QStringLiteral("Could not write the history export%1: %2.")
            .arg(name.isEmpty() ? QString() : QStringLiteral(" to ") + name, device.errorString()),
        device.errorString());
}

void write(QIODevice &device, const QByteArray &bytes)
{
    if (device.write(bytes) != bytes.size())
        writeFailed(device);
}

// RFC 4180: quote every field that needs it, double the quotes inside.
QByteArray csvField(const QString &value)
{
    QByteArray utf8 = value.toUtf8();
    if (utf8.contains(',') || utf8.contains('"') || utf8.contains('\n') || utf8.contains('\r')) {
        utf8.replace('"', "\"\"");
        utf8 = '"' + utf8 + '"';
    }
    return utf8;
}

QByteArray csvRow(const QStringList &fields)
{
    QByteArray row;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (i > 0)
            row += ',';
        row += csvField(fields[i]);
    }
    return row + "\r\n";
}

// XML 1.0 forbids most control characters even when escaped; a stray one from a pasted text
// must not make the whole TMX file unreadable.
QString xmlSafe(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (QChar c : text) {
        const char16_t u = c.unicode();
        if (u >= 0x20 || u == '\t' || u == '\n' || u == '\r')
            out.append(c);
    }
    return out;
}

QString languageOrUnknown(const QString &language)
{
    return language.isEmpty() ? QStringLiteral("und") : language;
}

// Visits the entries an export writes (HistoryStore::forEachEntry, narrowed to a search's hits);
// returns the entries it could not read.
using ForEachEntry = std::function<QList<HistoryDamage>(
    const HistoryFilter &, const std::function<bool(const HistoryEntry &)> &)>;

// Each writes its format to `device` and returns the records written.
qint64 writeJsonLines(QIODevice &device, const ForEachEntry &forEachEntry,
                      const HistoryFilter &filter, QList<HistoryDamage> &damaged)
{
    qint64 written = 0;
    damaged = forEachEntry(filter, [&](const HistoryEntry &e) {
        write(device, QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact) + '\n');
        ++written;
        return true;
    });
    return written;
}

qint64 writeCsv(QIODevice &device, const ForEachEntry &forEachEntry, const HistoryFilter &filter,
                QList<HistoryDamage> &damaged)
{
    qint64 written = 0;
    write(device,
          csvRow({QStringLiteral("id"), QStringLiteral("time"), QStringLiteral("kind"),
                  QStringLiteral("model_id"), QStringLiteral("model_version"),
                  QStringLiteral("source_language"), QStringLiteral("target_language"),
                  QStringLiteral("column"), QStringLiteral("label"), QStringLiteral("input"),
                  QStringLiteral("output"), QStringLiteral("score"),
                  QStringLiteral("elapsed_ms"), QStringLiteral("starred"),
                  QStringLiteral("settings"), QStringLiteral("edited")}));
    damaged = forEachEntry(filter, [&](const HistoryEntry &e) {
        QList<const HistoryOutput *> best;
        for (const HistoryOutput &o : e.outputs) {
            if (e.bestOutput(o.column) == &o)
                best.append(&o);
        }
        if (best.isEmpty())
            best.append(nullptr);
        const QString settings =
            QString::fromUtf8(QJsonDocument(e.settings).toJson(QJsonDocument::Compact));
        for (const HistoryOutput *o : best) {
            write(device,
                  csvRow({QString::number(e.id), e.time.toUTC().toString(Qt::ISODateWithMs),
                          historyKindName(e.kind), e.modelId, e.modelVersion, e.sourceLanguage,
                          e.targetLanguage, o ? QString::number(o->column) : QString(),
                          o ? o->label : QString(), e.inputText, o ? o->text : QString(),
                          o && o->score ? QString::number(*o->score, 'g', 8) : QString(),
                          QString::number(e.elapsedMs, 'f', 3),
                          e.starred ? QStringLiteral("1") : QStringLiteral("0"), settings,
                          o && o->column == 0 ? e.editedText : QString()}));
            ++written;
        }
        return true;
    });
    return written;
}

qint64 writeTmx(QIODevice &device, const ForEachEntry &forEachEntry, const HistoryFilter &filter,
                QList<HistoryDamage> &damaged, qint64 &entries)
{
    qint64 written = 0;
    QXmlStreamWriter xml(&device);
    xml.setAutoFormatting(true);
    xml.writeStartDocument();
    xml.writeStartElement(QStringLiteral("tmx"));
    xml.writeAttribute(QStringLiteral("version"), QStringLiteral("1.4"));
    xml.writeEmptyElement(QStringLiteral("header"));
    xml.writeAttribute(QStringLiteral("creationtool"), QStringLiteral("Glosa"));
    xml.writeAttribute(QStringLiteral("creationtoolversion"), QStringLiteral(GLOSA_VERSION));
    xml.writeAttribute(QStringLiteral("segtype"), QStringLiteral("sentence"));
    xml.writeAttribute(QStringLiteral("o-tmf"), QStringLiteral("glosa-history"));
    xml.writeAttribute(QStringLiteral("adminlang"), QStringLiteral("en"));
    xml.writeAttribute(QStringLiteral("srclang"), QStringLiteral("*all*"));
    xml.writeAttribute(QStringLiteral("datatype"), QStringLiteral("plaintext"));
    xml.writeStartElement(QStringLiteral("body"));
    HistoryFilter translations = filter;
    // Nothing but translations goes into a TMX: a filter on another kind exports no <tu>.
    const bool wantsTranslations =
        !translations.kind || *translations.kind == HistoryKind::Translation;
    translations.kind = HistoryKind::Translation;
    const auto writeUnit = [&](const HistoryEntry &e) {
        const HistoryOutput *best = e.bestOutput(0);
        if (!best || e.inputText.isEmpty()) {
            --entries; // nothing of it is in the file
            return true;
        }
        xml.writeStartElement(QStringLiteral("tu"));
        xml.writeAttribute(QStringLiteral("tuid"), QString::number(e.id));
        xml.writeAttribute(QStringLiteral("creationdate"),
                           e.time.toUTC().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'")));
        xml.writeStartElement(QStringLiteral("prop"));
        xml.writeAttribute(QStringLiteral("type"), QStringLiteral("x-glosa-model"));
        xml.writeCharacters(xmlSafe(e.modelId + QLatin1Char(' ') + e.modelVersion).trimmed());
        xml.writeEndElement();
        const std::pair<QString, QString> sides[] = {
            {languageOrUnknown(e.sourceLanguage), e.inputText},
            // A translation memory wants the user's version when there is one.
            {languageOrUnknown(e.targetLanguage),
             e.editedText.isEmpty() ? best->text : e.editedText}};
        for (const auto &[language, text] : sides) {
            xml.writeStartElement(QStringLiteral("tuv"));
            xml.writeAttribute(QStringLiteral("xml:lang"), language);
            xml.writeTextElement(QStringLiteral("seg"), xmlSafe(text));
            xml.writeEndElement();
        }
        xml.writeEndElement();
        if (xml.hasError())
            writeFailed(device);
        ++written;
        return true;
    };
    if (wantsTranslations)
        damaged = forEachEntry(translations, writeUnit);
    xml.writeEndElement(); // body
    xml.writeEndElement(); // tmx
    xml.writeEndDocument();
    if (xml.hasError())
        writeFailed(device);
    return written;
}

QSet<qint64> historySearchIds(const HistoryStore &store, const QString &search,
                              const HistoryFilter &filter)
{
    // Page by page, as the History list loads them: the same query, so the same entries.
    constexpr int kPage = 500;
    QSet<qint64> ids;
    for (int offset = 0;; offset += kPage) {
        const HistoryPage page = store.search(search, filter, offset, kPage);
        for (const HistorySummary &s : page.items)
            ids.insert(s.id);
        if (!page.hasMore || page.items.isEmpty())
            return ids;
    }
}

} // namespace

HistoryExport exportHistory(const HistoryStore &store, HistoryExportFormat format,
                            QIODevice &device, const HistoryFilter &filter, const QString &search)
{
    qint64 written = 0, entries = 0;
    QList<HistoryDamage> damaged;
    // A search narrows the filter's entries to its hits (an export of what the list shows).
    std::optional<QSet<qint64>> hits;
    if (!search.trimmed().isEmpty())
        hits = historySearchIds(store, search, filter);
    const ForEachEntry forEachEntry = [&](const HistoryFilter &f,
                                          const std::function<bool(const HistoryEntry &)> &visit) {
        return store.forEachEntry(f, [&](const HistoryEntry &e) {
            if (hits && !hits->contains(e.id))
                return true;
            ++entries;
            return visit(e);
        });
    };
    switch (format) {
    case HistoryExportFormat::JsonLines:
        written = writeJsonLines(device, forEachEntry, filter, damaged);
        break;
    case HistoryExportFormat::Csv:
        written = writeCsv(device, forEachEntry, filter, damaged);
        break;
    case HistoryExportFormat::Tmx:
        written = writeTmx(device, forEachEntry, filter, damaged, entries);
        break;
    }
    return {written, entries, damaged};
}

} // namespace glosa
