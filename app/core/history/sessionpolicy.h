// SessionPolicy: which of the Translate view's results become history entries, and which entry
// a new one replaces. TranslatePresenter applies it (ExplicitRecorder only its duplicates); it
// lives here, free of views, models, timers and the store, so that tests drive it with a fake
// clock (times are milliseconds of whatever clock the caller reads) and tables of events.
//
// Settling: translate-as-you-type produces a result for every pause in typing, and recording
// each one would fill the history with "Good", "Good mor", "Good morning". So the latest result
// is held and recorded once no newer one has come for kSettleMs (the user stopped typing and is
// reading it), or at once when the caller releases it (the user left the tab or closed the
// window). A result for a different text (sameTextEdited() false) releases the held one first.
//
// Duplicates: an entry with the same key (kind, model, input, settings) as the last recorded or
// opened one (pressing Translate twice, or the view re-translating an entry just opened) is not
// recorded again.
//
// Editing sessions: one editing session of one text (typed, corrected, re-translated with other
// settings or another model, for as long as each result is the same text edited) keeps one entry
// per model: a later translation by the same model replaces that model's entry of the session,
// so the history holds what the text became, not every stage of it. An entry opened from the
// history starts a new session (it is never replaced).
#pragma once

#include "app/core/history/entry.h"

#include <QHash>
#include <QString>

#include <optional>

namespace glosa {

// Whether `b` looks like `a` being typed or corrected rather than another text: they share a
// beginning or an end at least half as long as the shorter of the two ("The" → "The cat",
// "Good mornign" → "Good morning"), where a new sentence pasted over the old one shares little.
bool sameTextEdited(const QString &a, const QString &b);

// What makes two entries duplicates (SessionPolicy::isDuplicate): kind, model, input, image and
// settings.
QString historyEntryKey(const HistoryEntry &entry);

class SessionPolicy
{
public:
    static constexpr qint64 kSettleMs = 2000;

    // --- Settling -------------------------------------------------------------------------
    // A result for `text` was shown at `now` and is held. True when a result held before is for
    // another text: the caller records that one first (release() has been done for it).
    bool hold(const QString &text, qint64 now);
    bool holding() const { return m_held.has_value(); }
    // When the held result settles; nullopt when nothing is held.
    std::optional<qint64> settlesAt() const;
    // True once, when the held result has settled at `now`: it is released for recording.
    bool takeSettled(qint64 now);
    // The held result is recorded now, settled or not (tab left, window closed, another text).
    // False when nothing was held.
    bool release();

    // --- Recording ------------------------------------------------------------------------
    // Whether an entry with `key` repeats the last recorded or opened one (not recorded again).
    bool isDuplicate(const QString &key) const { return key == m_lastKey; }
    // An entry with `key` was recorded (or is queued) as `id`: the last one, for duplicates.
    void recorded(const QString &key, qint64 id);
    qint64 lastId() const { return m_lastId; }
    // A translation of `text` is being recorded: it joins the session when it is the session's
    // text edited, and begins a new session otherwise.
    void enterSession(const QString &text);
    // A translation by `modelId` in the session was recorded as `id`: returns that model's
    // earlier entry of the session, which the caller replaces (0: none).
    qint64 replaceInSession(const QString &modelId, qint64 id);
    // An entry was opened from the history: it is the last one, and a new session begins (an
    // opened entry is never replaced).
    void opened(const QString &key, qint64 id);

private:
    struct Held
    {
        QString text;
        qint64 since;
    };
    std::optional<Held> m_held;
    QString m_lastKey;
    qint64 m_lastId = 0;
    QString m_sessionText;
    QHash<QString, qint64> m_sessionEntries; // model id → entry id
};

} // namespace glosa
