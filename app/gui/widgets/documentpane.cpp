#include "app/gui/widgets/documentpane.h"

#include <QAbstractTextDocumentLayout>
#include <QFontDatabase>
#include <QHash>
#include <QKeyEvent>
#include <QMap>
#include <QMimeData>
#include <QScrollBar>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextList>
#include <QTextTable>

#include <algorithm>
#include <array>
#include <cmath>

namespace glosa {

namespace {

using Kind = documents::BlockRole::Kind;

// Each table's size: the cells' furthest row and column, and how many paragraphs it holds.
struct Grid
{
    qint64 rows = 0, columns = 0, paragraphs = 0;
};

// Writes paragraphs one after another into a document, each in its place: a table's cell, a
// list at its level, a heading or a paragraph.
class LayoutWriter
{
public:
    LayoutWriter(QTextDocument *document, const QList<documents::ParagraphLayout> &layouts,
                 const QColor &border)
        : m_cursor(document), m_border(border)
    {
        for (const documents::ParagraphLayout &layout : layouts)
            if (layout.role.kind == Kind::TableCell) {
                Grid &grid = m_grids[layout.role.table];
                grid.rows = std::max<qint64>(grid.rows, layout.role.row + 1);
                grid.columns = std::max<qint64>(grid.columns, layout.role.column + 1);
                ++grid.paragraphs;
            }
        m_cursor.beginEditBlock();
    }
    ~LayoutWriter() { m_cursor.endEditBlock(); }

    // A new block for a paragraph with `role`, formatted for it; its text goes in with the
    // returned char format.
    QTextBlock place(documents::BlockRole role, QTextCharFormat *charFormat)
    {
        if (role.kind == Kind::TableCell && !isGrid(role.table))
            role = documents::BlockRole();
        moveToCell(role);
        if (role.kind != Kind::ListItem)
            m_lists.clear();
        // A block already showing a paragraph (a cell's first) gets a new one after it.
        if (m_cursor.block().userState() >= 0 || m_cursor.block().length() > 1)
            m_cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
        QTextBlockFormat blockFormat;
        if (role.kind == Kind::Heading) {
            blockFormat.setHeadingLevel(role.level);
            blockFormat.setTopMargin(8);
            blockFormat.setBottomMargin(4);
            charFormat->setFontWeight(QFont::Bold);
            // What QTextDocument's own HTML import gives <h1> … <h6>.
            charFormat->setProperty(QTextFormat::FontSizeAdjustment,
                                    std::clamp(4 - role.level, -2, 3));
        } else if (role.kind == Kind::Paragraph) {
            blockFormat.setBottomMargin(4);
        }
        m_cursor.setBlockFormat(blockFormat);
        m_cursor.setBlockCharFormat(*charFormat);
        if (role.kind == Kind::ListItem)
            addToList(role);
        return m_cursor.block();
    }

    void insertText(const QString &text, const QTextCharFormat &format)
    {
        m_cursor.insertText(text, format);
    }

private:
    // A QTextTable holds every cell of its grid: a hostile table with one cell 20,000 columns
    // out in each of 200 rows would be 4 million cells for 400 paragraphs. A grid mostly empty
    // is shown as paragraphs instead.
    bool isGrid(int table) const
    {
        const Grid grid = m_grids.value(table);
        return grid.rows * grid.columns <= std::max<qint64>(256, 4 * grid.paragraphs);
    }

    void moveToCell(const documents::BlockRole &role)
    {
        if (role.kind == Kind::TableCell && (!m_table || role.table != m_tableId)) {
            if (m_table) { // two tables in a row: the line between them
                m_cursor = m_table->lastCursorPosition();
                m_cursor.movePosition(QTextCursor::NextBlock);
            }
            QTextTableFormat format;
            format.setBorder(1);
            format.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
            format.setBorderBrush(m_border);
            format.setBorderCollapse(true);
            format.setCellPadding(3);
            format.setCellSpacing(0);
            format.setWidth(QTextLength(QTextLength::PercentageLength, 100));
            const Grid grid = m_grids.value(role.table);
            m_table = m_cursor.insertTable(int(grid.rows), int(grid.columns), format);
            m_tableId = role.table;
        }
        if (role.kind == Kind::TableCell) {
            m_cursor = m_table->cellAt(role.row, role.column).lastCursorPosition();
        } else if (m_table) { // after the table
            m_cursor = m_table->lastCursorPosition();
            m_cursor.movePosition(QTextCursor::NextBlock);
            m_table = nullptr;
        }
    }

    // Deeper lists end where a shallower item comes; a new list starts where the kind of list
    // changes.
    void addToList(const documents::BlockRole &role)
    {
        m_lists.erase(m_lists.upperBound(role.level), m_lists.end());
        const QTextListFormat::Style style =
            role.ordered ? QTextListFormat::ListDecimal
                         : std::array{QTextListFormat::ListDisc, QTextListFormat::ListCircle,
                                      QTextListFormat::ListSquare}[role.level % 3];
        QTextList *&list = m_lists[role.level];
        if (list && list->format().style() == style) {
            list->add(m_cursor.block());
        } else {
            QTextListFormat format;
            format.setStyle(style);
            format.setIndent(role.level + 1);
            list = m_cursor.createList(format);
        }
    }

    QTextCursor m_cursor;
    QColor m_border;
    QHash<int, Grid> m_grids;
    QTextTable *m_table = nullptr;
    int m_tableId = -1;
    QMap<int, QTextList *> m_lists; // the list at each level of the current run of list items
};

} // namespace

DocumentPane::DocumentPane(QWidget *parent) : QTextEdit(parent)
{
    setReadOnly(true);
    setAcceptRichText(false);
    setAcceptDrops(false); // a dropped file opens the document (the view takes it)
    viewport()->setAcceptDrops(false);
    document()->setUndoRedoEnabled(false);
    // Read-only but with a cursor: clicking a sentence highlights it on both sides.
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    connect(document(), &QTextDocument::contentsChange, this, [this](int position, int, int) {
        if (m_filling || m_blocks.isEmpty())
            return;
        const QTextBlock block = document()->findBlock(position);
        if (block.isValid() && block.userState() >= 0 && block.userState() < m_blocks.size())
            emit paragraphEdited(block.userState(), block.text());
    });
}

void DocumentPane::setEditable(bool editable)
{
    setReadOnly(!editable);
    setTabChangesFocus(editable); // a tab would move to the next table cell or indent a list
    setTextInteractionFlags(editable ? Qt::TextEditorInteraction
                                     : Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
}

void DocumentPane::clearParagraphs()
{
    m_filling = true;
    m_blocks.clear();
    clear();
    m_filling = false;
}

QTextCharFormat DocumentPane::textFormat(const QTextBlock &block, bool dimmed) const
{
    QTextCharFormat format = block.charFormat();
    format.setForeground(
        palette().color(dimmed ? QPalette::Disabled : QPalette::Active, QPalette::Text));
    return format;
}

void DocumentPane::fillPlain(const QStringList &texts, bool dimmed)
{
    // setPlainText types with the cursor's format: after a formatted document whose first block
    // was a heading, every paragraph came out large and bold.
    setCurrentCharFormat(QTextCharFormat());
    setPlainText(texts.join(QLatin1Char('\n')));
    for (QTextBlock block = document()->firstBlock(); block.isValid(); block = block.next()) {
        block.setUserState(int(m_blocks.size()));
        m_blocks << block;
    }
    if (dimmed) {
        QTextCursor all(document());
        all.select(QTextCursor::Document);
        all.mergeCharFormat(textFormat(document()->firstBlock(), true));
    }
}

void DocumentPane::fill(const QStringList &texts, const QList<documents::ParagraphLayout> &layouts,
                        bool dimmed)
{
    m_filling = true;
    m_blocks.clear();
    const bool plain =
        layouts.size() != texts.size() ||
        std::all_of(layouts.begin(), layouts.end(), [](const documents::ParagraphLayout &l) {
            return l.role.kind == Kind::Paragraph && l.runs.isEmpty();
        });
    if (plain) { // text, subtitles, a PDF: one block per paragraph, as fast as it gets
        fillPlain(texts, dimmed);
        m_filling = false;
        return;
    }
    document()->clear();
    {
        LayoutWriter writer(document(), layouts, palette().color(QPalette::Mid));
        for (int i = 0; i < layouts.size(); ++i) {
            QTextCharFormat format;
            QTextBlock block = writer.place(layouts[i].role, &format);
            format.setForeground(
                palette().color(dimmed ? QPalette::Disabled : QPalette::Active, QPalette::Text));
            writer.insertText(texts[i], format);
            applyRuns(block, layouts[i].runs);
            block.setUserState(i);
            m_blocks << block;
        }
    }
    // The pane's cursor followed the insertions to the end; setPlainText leaves it at the start.
    moveCursor(QTextCursor::Start);
    m_filling = false;
}

void DocumentPane::applyRuns(const QTextBlock &block, const QList<documents::StyledRun> &runs)
{
    static const QString fixedFamily = QFontDatabase::systemFont(QFontDatabase::FixedFont).family();
    for (const documents::StyledRun &run : runs) {
        QTextCharFormat styled;
        if (run.styles & documents::Bold)
            styled.setFontWeight(QFont::Bold);
        if (run.styles & documents::Italic)
            styled.setFontItalic(true);
        if (run.styles & (documents::Underline | documents::Link))
            styled.setFontUnderline(true);
        if (run.styles & documents::StrikeOut)
            styled.setFontStrikeOut(true);
        if (run.styles & documents::Code)
            styled.setFontFamilies({fixedFamily});
        if (run.styles & documents::Link)
            styled.setForeground(palette().color(QPalette::Link));
        QTextCursor range(block);
        range.setPosition(block.position() + std::clamp(run.begin, 0, block.length() - 1));
        range.setPosition(block.position() + std::clamp(run.end, 0, block.length() - 1),
                          QTextCursor::KeepAnchor);
        range.mergeCharFormat(styled);
    }
}

void DocumentPane::setParagraph(int paragraph, const QString &text,
                                const QList<documents::StyledRun> &runs, bool dimmed)
{
    const QTextBlock target = block(paragraph);
    if (!target.isValid())
        return;
    m_filling = true;
    QTextCursor cursor(target);
    cursor.setPosition(target.position() + target.length() - 1, QTextCursor::KeepAnchor);
    cursor.insertText(text, textFormat(target, dimmed));
    applyRuns(target, runs);
    m_filling = false;
}

QTextBlock DocumentPane::block(int paragraph) const
{
    return paragraph >= 0 && paragraph < m_blocks.size() ? m_blocks[paragraph] : QTextBlock();
}

QTextEdit::ExtraSelection DocumentPane::selection(int paragraph, int begin, int end,
                                                  const QTextCharFormat &format) const
{
    const QTextBlock at = block(paragraph);
    QTextCursor cursor(at);
    if (at.isValid()) {
        cursor.setPosition(at.position() + std::clamp(begin, 0, at.length() - 1));
        cursor.setPosition(at.position() + std::clamp(end, 0, at.length() - 1),
                           QTextCursor::KeepAnchor);
    }
    return {cursor, format};
}

int DocumentPane::topParagraph(double *within) const
{
    const QAbstractTextDocumentLayout *layout = document()->documentLayout();
    const int value = verticalScrollBar()->value();
    QTextBlock top = cursorForPosition(QPoint(0, 0)).block();
    QRectF rect = layout->blockBoundingRect(top);
    // Past the empty line before a table, and past a block that ends at the top edge (whose
    // last pixel row is where the next block starts: the hit test gives the block above).
    while (top.isValid() && (top.userState() < 0 || rect.bottom() <= value)) {
        top = top.next();
        rect = layout->blockBoundingRect(top);
    }
    if (!top.isValid())
        return -1;
    *within = rect.height() > 0 ? std::clamp((value - rect.top()) / rect.height(), 0.0, 1.0) : 0.0;
    return top.userState();
}

void DocumentPane::scrollToParagraph(int paragraph, double within)
{
    const QTextBlock at = block(paragraph);
    if (!at.isValid())
        return;
    const QRectF rect = document()->documentLayout()->blockBoundingRect(at);
    verticalScrollBar()->setValue(int(std::ceil(rect.top() + rect.height() * within)));
}

bool DocumentPane::breaksParagraphs(const QKeyEvent *key) const
{
    const QTextCursor cursor = textCursor();
    const bool acrossParagraphs =
        cursor.hasSelection() && document()->findBlock(cursor.selectionStart()) !=
                                     document()->findBlock(cursor.selectionEnd());
    const bool edits = !key->text().isEmpty() || key->key() == Qt::Key_Backspace ||
                       key->key() == Qt::Key_Delete || key->matches(QKeySequence::Cut) ||
                       key->matches(QKeySequence::Paste);
    return key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter ||
           (acrossParagraphs && edits) ||
           (!cursor.hasSelection() && key->key() == Qt::Key_Backspace && cursor.atBlockStart()) ||
           (!cursor.hasSelection() && key->key() == Qt::Key_Delete && cursor.atBlockEnd());
}

void DocumentPane::keyPressEvent(QKeyEvent *event)
{
    if (!isReadOnly() && breaksParagraphs(event)) {
        event->accept();
        return;
    }
    QTextEdit::keyPressEvent(event);
}

void DocumentPane::insertFromMimeData(const QMimeData *source)
{
    // Pasted lines become one: a paragraph is one block.
    if (source && source->hasText())
        textCursor().insertText(source->text().simplified());
}

} // namespace glosa
