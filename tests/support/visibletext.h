// The interface text a user reads in a window: each visible widget's labels, button texts, tab
// names, combo entries, group titles, headers and placeholders (an editor's text is content, not
// interface). The language tests walk a window with it and each keeps what it compares.
#pragma once

#include <QAbstractButton>
#include <QComboBox>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTabBar>
#include <QTextDocument>
#include <QWidget>

// Calls add(text, widget) for every text of `root`'s visible widgets; rich text as it reads.
template <typename Add> void forEachVisibleText(QWidget *root, Add add)
{
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (!w->isVisible() || w->visibleRegion().isEmpty())
            continue;
        if (auto *label = qobject_cast<QLabel *>(w)) {
            QTextDocument plain;
            plain.setHtml(label->text());
            add(Qt::mightBeRichText(label->text()) ? plain.toPlainText() : label->text(), w);
        } else if (auto *button = qobject_cast<QAbstractButton *>(w)) {
            add(button->text(), w);
        } else if (auto *combo = qobject_cast<QComboBox *>(w)) {
            for (int i = 0; i < combo->count(); ++i)
                add(combo->itemText(i), w);
        } else if (auto *tabs = qobject_cast<QTabBar *>(w)) {
            for (int i = 0; i < tabs->count(); ++i)
                add(tabs->tabText(i), w);
        } else if (auto *group = qobject_cast<QGroupBox *>(w)) {
            add(group->title(), w);
        } else if (auto *header = qobject_cast<QHeaderView *>(w)) {
            for (int i = 0; header->model() && i < header->count(); ++i)
                add(header->model()->headerData(i, header->orientation()).toString(), w);
        } else if (auto *line = qobject_cast<QLineEdit *>(w)) {
            if (line->text().isEmpty())
                add(line->placeholderText(), w);
        } else if (auto *editor = qobject_cast<QPlainTextEdit *>(w)) {
            if (editor->toPlainText().isEmpty())
                add(editor->placeholderText(), w);
        }
    }
}
