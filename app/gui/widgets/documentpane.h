// DocumentPane: one side of the Documents tab, a document shown as it is formatted (headings,
// lists, tables, and bold, italic, code and links: documents/layout.h), one block per paragraph.
// The source and the translation are both DocumentPanes filled with the same layout, so that
// they show the same blocks and table cells and line up block for block; the translation's runs
// are the source's as projectSpans() carried them (DocumentsPresenter::targetRuns).
//
// Basic usage:
//     pane->fill(texts, layouts);              // paragraph n is block(n), whose userState() is n
//     pane->setParagraph(3, text, runs);       // a translation arrived for paragraph 3
//     pane->setEditable(true);                 // paragraphEdited(n, text) as the user types
//     const int top = pane->topParagraph(&within);
//     other->scrollToParagraph(top, within);   // linked scrolling
#pragma once

#include "app/core/documents/documentworker.h"

#include <QList>
#include <QTextBlock>
#include <QTextEdit>

namespace glosa {

class DocumentPane : public QTextEdit
{
    Q_OBJECT
public:
    explicit DocumentPane(QWidget *parent = nullptr);

    // Shows paragraph i as texts[i] (one line), placed and styled as layouts[i] says (as many
    // as texts, else every paragraph plain). `dimmed`: in the disabled text colour (what is not
    // translated yet). Blocks that are no paragraph (the line before a table) have userState -1.
    void fill(const QStringList &texts, const QList<documents::ParagraphLayout> &layouts,
              bool dimmed = false);
    void clearParagraphs();
    // Paragraph `paragraph` now reads `text` with `runs` (in its offsets), in the normal text
    // colour unless `dimmed`; its place (heading, list item, cell) stays.
    void setParagraph(int paragraph, const QString &text, const QList<documents::StyledRun> &runs,
                      bool dimmed = false);
    int paragraphCount() const { return int(m_blocks.size()); }
    QTextBlock block(int paragraph) const;
    // A highlight of [begin, end) of paragraph `paragraph` (clamped to its text).
    QTextEdit::ExtraSelection selection(int paragraph, int begin, int end,
                                        const QTextCharFormat &format) const;

    // The paragraph at the top of the view and how far into it (0 to 1) the view is scrolled;
    // -1 without one.
    int topParagraph(double *within) const;
    // Scrolls so that paragraph `paragraph` is at the top, `within` of it above the edge.
    void scrollToParagraph(int paragraph, double within);

    // Post-editing: the user types into the paragraphs; no key adds a line break or joins two
    // paragraphs, and what is pasted becomes one line.
    void setEditable(bool editable);

signals:
    // The user changed the text of paragraph `paragraph` (not fill() or setParagraph()).
    void paragraphEdited(int paragraph, const QString &text);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void insertFromMimeData(const QMimeData *source) override;

private:
    // Whether `key` would add a line break or join or cross paragraphs.
    bool breaksParagraphs(const QKeyEvent *key) const;
    void fillPlain(const QStringList &texts, bool dimmed);
    void applyRuns(const QTextBlock &block, const QList<documents::StyledRun> &runs);
    QTextCharFormat textFormat(const QTextBlock &block, bool dimmed) const;

    // Each paragraph's block (valid until the next fill: no edit adds or removes blocks).
    QList<QTextBlock> m_blocks;
    bool m_filling = false; // the pane, not the user, is writing
};

} // namespace glosa
