// SessionPolicy (app/core/history/sessionpolicy.h) driven by tables of events on a fake clock:
// which of the Translate view's results settle into the history, and which entry a new one
// replaces. TranslatePresenter applies exactly these calls; here no view, model, timer or sleep
// is involved, so each row fails exactly when the policy is wrong.
#include "app/core/history/sessionpolicy.h"

#include <QTest>

#include <vector>

using namespace glosa;

namespace {

enum class Op {
    Hold,    // a result for `text` is shown at `t`: expect whether another text was released
    Settled, // the clock reads `t`: expect whether the held result settles now
    Release, // the tab is left: expect whether anything was held
    Record,  // `text` by `model` is recorded in the session: expect the entry it replaces (0:
             // none), or -1 when it repeats the last entry and is not recorded
    Open,    // the entry `expect` (`text` by `model`) is opened from the history
};

struct Step
{
    Op op;
    qint64 t = 0;
    QString text;
    QString model;
    qint64 expect = 0;
};

QString keyOf(const Step &s)
{
    return s.model + QChar(0) + s.text;
}

} // namespace

Q_DECLARE_METATYPE(std::vector<Step>)

class TestSessionPolicy : public QObject
{
    Q_OBJECT

private slots:
    void sameTextEdited_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<bool>("same");
        QTest::newRow("typed further") << "The" << "The cat" << true;
        QTest::newRow("typo fixed") << "Good mornign" << "Good morning" << true;
        QTest::newRow("start changed") << "a cat sleeps." << "The cat sleeps." << true;
        QTest::newRow("another text") << "Good morning" << "Completely different" << false;
        QTest::newRow("empty") << "" << "The cat" << false;
    }
    void sameTextEdited()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(bool, same);
        QCOMPARE(glosa::sameTextEdited(a, b), same);
        QCOMPARE(glosa::sameTextEdited(b, a), same);
    }

    void events_data()
    {
        QTest::addColumn<std::vector<Step>>("steps");
        const qint64 settle = SessionPolicy::kSettleMs;
        QTest::newRow("typing settles once, kSettleMs after the last result")
            << std::vector<Step>{{Op::Hold, 0, "The", "", 0},
                                 {Op::Hold, 300, "The cat", "", 0},
                                 {Op::Hold, 600, "The cat sleeps.", "", 0},
                                 {Op::Settled, 599 + settle, "", "", 0},
                                 {Op::Settled, 600 + settle, "", "", 1},
                                 {Op::Settled, 5 * settle, "", "", 0}};
        QTest::newRow("a pause records, and typing on holds again")
            << std::vector<Step>{{Op::Hold, 0, "Good", "", 0},
                                 {Op::Settled, settle, "", "", 1},
                                 {Op::Hold, settle + 500, "Good morning", "", 0},
                                 {Op::Settled, 2 * settle + 499, "", "", 0},
                                 {Op::Settled, 2 * settle + 500, "", "", 1}};
        QTest::newRow("another text releases the held one at once")
            << std::vector<Step>{{Op::Hold, 0, "Good morning", "", 0},
                                 {Op::Hold, 500, "Completely different words", "", 1},
                                 {Op::Settled, 499 + settle, "", "", 0},
                                 {Op::Settled, 500 + settle, "", "", 1}};
        QTest::newRow("leaving the tab releases what is held, once")
            << std::vector<Step>{{Op::Hold, 0, "The cat", "", 0},
                                 {Op::Release, 10, "", "", 1},
                                 {Op::Release, 20, "", "", 0},
                                 {Op::Settled, 10 * settle, "", "", 0}};
        QTest::newRow("one entry per model and editing session")
            << std::vector<Step>{{Op::Record, 0, "The cat", "m1", 0},          // entry 1
                                 {Op::Record, 0, "The cat sleeps.", "m1", 1},  // 2 replaces 1
                                 {Op::Record, 0, "The cat sleeps.", "m2", 0},  // 3
                                 {Op::Record, 0, "The cat sleeps!", "m2", 3},  // 4 replaces 3
                                 {Op::Record, 0, "The cat sleeps!!", "m1", 2}, // 5 replaces 2
                                 {Op::Record, 0, "Another text entirely", "m1", 0}, // 6
                                 {Op::Record, 0, "The cat sleeps!!!", "m1", 0}};    // 7: new
        QTest::newRow("a repeat of the last entry is not recorded")
            << std::vector<Step>{{Op::Record, 0, "Hello", "m1", 0},  // entry 1
                                 {Op::Record, 0, "Hello", "m1", -1}, // Translate pressed again
                                 {Op::Record, 0, "Hello!", "m1", 1}};
        QTest::newRow("an entry opened from the history is never replaced")
            << std::vector<Step>{{Op::Record, 0, "Hello there", "m1", 0}, // entry 1
                                 {Op::Open, 0, "Hello", "m1", 7},
                                 {Op::Record, 0, "Hello", "m1", -1}, // the view re-translates it
                                 {Op::Record, 0, "Hello!", "m1", 0}, // 2: 7 stays
                                 {Op::Record, 0, "Hello!!", "m1", 2}};
    }
    void events()
    {
        QFETCH(std::vector<Step>, steps);
        SessionPolicy policy;
        qint64 nextId = 0;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const Step &s = steps[i];
            qint64 got = 0;
            switch (s.op) {
            case Op::Hold:
                got = policy.hold(s.text, s.t);
                QVERIFY(policy.holding());
                QCOMPARE(*policy.settlesAt(), s.t + SessionPolicy::kSettleMs);
                break;
            case Op::Settled:
                got = policy.takeSettled(s.t);
                break;
            case Op::Release:
                got = policy.release();
                QVERIFY(!policy.holding());
                QVERIFY(!policy.settlesAt());
                break;
            case Op::Record:
                // What TranslatePresenter::recordEntry() does with the store's new id.
                policy.enterSession(s.text);
                if (policy.isDuplicate(keyOf(s))) {
                    got = -1;
                } else {
                    policy.recorded(keyOf(s), ++nextId);
                    QCOMPARE(policy.lastId(), nextId);
                    got = policy.replaceInSession(s.model, nextId);
                }
                break;
            case Op::Open:
                policy.opened(keyOf(s), s.expect);
                got = policy.lastId();
                break;
            }
            QVERIFY2(got == s.expect, qPrintable(QStringLiteral("step %1: got %2, expected %3")
                                                     .arg(i)
                                                     .arg(got)
                                                     .arg(s.expect)));
        }
    }
};

QTEST_GUILESS_MAIN(TestSessionPolicy)
#include "tst_sessionpolicy.moc"
