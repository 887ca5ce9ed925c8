// HistoryRerunPane: History's "Re-run with current settings" as then and now side by side: the
// entry's best output as recorded and the new result (or "Running…", or what failed), each under
// a title naming when, the model and the decoding. Its words are HistoryView's (historytexts.h).
#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace glosa {

struct HistoryEntry;

class HistoryRerunPane : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryRerunPane(QWidget *parent = nullptr);

    // `then` on the left, "Running…" on the right until showResult() or showFailed().
    void showPending(const HistoryEntry &then);
    void showResult(const HistoryEntry &now);
    void showFailed(const QString &message);

    QPlainTextEdit *thenText() const { return m_then; }
    QPlainTextEdit *nowText() const { return m_now; }

private:
    QLabel *m_thenTitle = nullptr;
    QLabel *m_nowTitle = nullptr;
    QPlainTextEdit *m_then = nullptr;
    QPlainTextEdit *m_now = nullptr;
};

} // namespace glosa
