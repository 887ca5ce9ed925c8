#include "app/gui/views/historyentryhtml.h"

#include "app/core/history/entrykinds.h"
#include "app/core/settings/decodingmaps.h"
#include "app/gui/historytexts.h"
#include "app/gui/theme.h"
#include "app/gui/views/historymodel.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QLocale>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTextDocument>

namespace glosa {

namespace {
// Paints HistoryModel::HtmlRole: a header line, the input or the search snippet, the output, each
// on one line and cut at the right edge. Rows of one height let the list use uniform item sizes,
// so laying out thousands of loaded rows costs nothing (wrapped rows of varying height made every
// page that was fetched re-measure all rows before it: 48 ms at 200 rows).
class HistoryDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        opt.text.clear();
        QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
        QTextDocument doc;
        setUp(doc, option, index);
        painter->save();
        painter->setClipRect(option.rect.adjusted(6, 0, -6, 0));
        painter->translate(option.rect.topLeft() + QPoint(6, 4));
        QAbstractTextDocumentLayout::PaintContext context;
        context.palette = option.palette;
        const bool selected = option.state & QStyle::State_Selected;
        context.palette.setColor(QPalette::Text, option.palette.color(
                                                     selected ? QPalette::HighlightedText
                                                              : QPalette::Text));
        doc.documentLayout()->draw(painter, context);
        painter->restore();
    }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QTextDocument doc;
        setUp(doc, option, index);
        return QSize(120, int(doc.size().height()) + 8); // the list gives rows its full width
    }

private:
    static void setUp(QTextDocument &doc, const QStyleOptionViewItem &option,
                      const QModelIndex &index)
    {
        doc.setDefaultFont(option.font);
        doc.setDocumentMargin(0);
        // On the selection's background the muted output and the accent would not be readable.
        const bool selected = option.state & QStyle::State_Selected;
        const QPalette &pal = option.palette;
        doc.setDefaultStyleSheet(
            QStringLiteral(".output { color: %1; } b { color: %2; }")
                .arg(pal.color(selected ? QPalette::HighlightedText : QPalette::PlaceholderText)
                         .name(),
                     (selected ? pal.color(QPalette::HighlightedText) : theme::accent(pal))
                         .name()));
        QTextOption noWrap;
        noWrap.setWrapMode(QTextOption::NoWrap);
        doc.setDefaultTextOption(noWrap);
        doc.setHtml(index.data(HistoryModel::HtmlRole).toString());
    }
};

QString modelText(const HistoryEntry &e)
{
    return e.modelVersion.isEmpty() ? e.modelId : QStringLiteral("%1 %2").arg(e.modelId, e.modelVersion);
}

QString paragraph(const QString &text)
{
    return text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

QString cell(const QString &text, bool header = false)
{
    return header ? QStringLiteral("<th align='left'>%1</th>").arg(text.toHtmlEscaped())
                  : QStringLiteral("<td>%1</td>").arg(text.toHtmlEscaped());
}

QString number(double value, int decimals = 2)
{
    return QLocale().toString(value, 'f', decimals);
}

// An evaluation: the test set, a table of scores (one row per model), BLEU by source length as
// a table (the chart's numbers) and the differences the entry kept.
QString evaluationHtml(const HistoryEntry &e)
{
    const StoredEvaluation stored = evaluationFromHistory(e);
    QString html = QStringLiteral("<h4>%1</h4><p>%2</p>")
                       .arg(HistoryTexts::tr("Test set"),
                            HistoryTexts::tr("%1 (%n sentence(s))", nullptr, int(stored.sentences))
                                .arg(stored.testSetName)
                                .toHtmlEscaped());
    html += QStringLiteral("<h4>%1</h4><table cellspacing='0' cellpadding='3'><tr>")
                .arg(HistoryTexts::tr("Scores"));
    for (const QString &title : {HistoryTexts::tr("Model"), HistoryTexts::tr("BLEU"),
                                 HistoryTexts::tr("chrF2"), HistoryTexts::tr("Brevity penalty"),
                                 HistoryTexts::tr("Decoding"), HistoryTexts::tr("Time")})
        html += cell(title, true);
    html += QStringLiteral("</tr>");
    for (const StoredModelScore &m : stored.models) {
        html += QStringLiteral("<tr>") +
                cell(m.version.isEmpty() ? m.id : QStringLiteral("%1 %2").arg(m.id, m.version)) +
                cell(number(m.bleu)) + cell(number(m.chrf)) + cell(number(m.brevityPenalty, 3)) +
                cell(decodingSummary(m.decoding)) +
                cell(HistoryTexts::tr("%1 s").arg(number(m.seconds, 1))) + QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");
    if (!stored.buckets.empty()) {
        html += QStringLiteral("<h4>%1</h4><table cellspacing='0' cellpadding='3'><tr>")
                    .arg(HistoryTexts::tr("BLEU by source-sentence length (words)"));
        html += cell(HistoryTexts::tr("Words"), true) + cell(HistoryTexts::tr("Sentences"), true);
        for (const StoredModelScore &m : stored.models)
            html += cell(m.id, true);
        html += QStringLiteral("</tr>");
        for (const engine::LengthBucket &b : stored.buckets) {
            html += QStringLiteral("<tr>") +
                    cell(QString::fromStdString(engine::lengthBucketLabel(b))) +
                    cell(QLocale().toString(qint64(b.sentences)));
            for (const double bleu : b.bleu)
                html += cell(number(bleu));
            html += QStringLiteral("</tr>");
        }
        html += QStringLiteral("</table>");
    }
    if (!stored.differences.isEmpty() && stored.models.size() >= 2) {
        html += QStringLiteral("<h4>%1</h4><ol>")
                    .arg(HistoryTexts::tr("Where %1 and %2 differ most (sentence chrF2)")
                             .arg(stored.models[0].id, stored.models[1].id)
                             .toHtmlEscaped());
        for (const StoredDifference &d : stored.differences)
            html += QStringLiteral("<li>%1 <small>(%2 / %3)</small><br>%4: %5<br>%6: %7<br>%8</li>")
                        .arg(paragraph(d.source), number(d.chrfA, 1), number(d.chrfB, 1),
                             stored.models[0].id.toHtmlEscaped(), paragraph(d.hypothesisA),
                             stored.models[1].id.toHtmlEscaped(), paragraph(d.hypothesisB),
                             paragraph(HistoryTexts::tr("Reference: %1").arg(d.reference)));
        html += QStringLiteral("</ol>");
    }
    return html;
}

} // namespace

QStyledItemDelegate *makeHistoryDelegate(QObject *parent)
{
    return new HistoryDelegate(parent);
}

QString historyEntryHtml(const HistoryEntry &e)
{
    QString html =
        QStringLiteral("<p><b>%1</b> · %2 · %3 · %4</p>")
            .arg(HistoryModel::kindLabel(e.kind), modelText(e).toHtmlEscaped(),
                 QLocale().toString(e.time.toLocalTime(), QLocale::LongFormat).toHtmlEscaped(),
                 HistoryTexts::tr("%1 ms").arg(QLocale().toString(e.elapsedMs, 'f', 0)));
    if (e.kind == HistoryKind::Caption) {
        if (!e.thumbnailPng.isEmpty())
            html += QStringLiteral("<p><img src='history:thumbnail'></p>");
        html += QStringLiteral("<p>%1</p>").arg(paragraph(e.imagePath));
    } else if (e.kind == HistoryKind::Evaluation) {
        return html + evaluationHtml(e);
    } else {
        html += QStringLiteral("<h4>%1</h4><p>%2</p>")
                    .arg(HistoryTexts::tr("Input"), paragraph(e.inputText));
    }
    const QList<engine::DecodingOptions> columns = historyColumnOptions(e);
    for (int c = 0; c < columns.size(); ++c) {
        const QString title = e.kind == HistoryKind::Comparison
                                  ? HistoryTexts::tr("Column %1").arg(c + 1)
                                  : HistoryTexts::tr("Output");
        // A document names its file instead (decoded with the Documents view's own settings).
        const QString about = e.kind == HistoryKind::Document
                                  ? e.settings.value(QStringLiteral("document")).toString()
                                  : decodingSummary(columns[c]);
        html +=
            QStringLiteral("<h4>%1 <small>(%2)</small></h4><ol>").arg(title, about.toHtmlEscaped());
        for (const HistoryOutput &o : e.outputs) {
            if (o.column != c)
                continue;
            html += QStringLiteral("<li>%1").arg(historyOutputHtml(e, o));
            if (o.score)
                html +=
                    QStringLiteral(" <small>%1</small>")
                        .arg(
                            HistoryTexts::tr("score %1").arg(QLocale().toString(*o.score, 'f', 2)));
            html += QStringLiteral("</li>");
        }
        html += QStringLiteral("</ol>");
    }
    if (const std::optional<ForcedWords> forced = historyForcedWords(e))
        html += QStringLiteral("<p><small>%1</small></p>")
                    .arg(HistoryTexts::tr("Underlined: “%1”, the words you chose among the "
                                          "candidates; the rest is the model's.")
                             .arg(forced->text)
                             .toHtmlEscaped());
    if (!e.editedText.isEmpty())
        html += QStringLiteral("<h4>%1</h4><p>%2</p>")
                    .arg(HistoryTexts::tr("Your version"), paragraph(e.editedText));
    return html;
}

QString historyRerunTitle(const QString &when, const HistoryEntry &e)
{
    const QList<engine::DecodingOptions> options = historyColumnOptions(e);
    return QStringLiteral("%1 — %2 · %3")
        .arg(when, modelText(e), options.isEmpty() ? QString() : decodingSummary(options.first()));
}

} // namespace glosa
