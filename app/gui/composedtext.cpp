#include "app/gui/composedtext.h"

#include "app/gui/livetext.h"

#include <QCoreApplication>

namespace glosa {

QString steeringLabel(const QString &words, bool ends, int sentence, int sentences)
{
    return liveText([=] {
        const QString prefix =
            ends ? QCoreApplication::translate("glosa::Steering", "prefix: «%1» + end").arg(words)
                 : QCoreApplication::translate("glosa::Steering", "prefix: «%1»").arg(words);
        if (sentences <= 1)
            return prefix;
        return QCoreApplication::translate("glosa::Steering", "sentence %1 · %2")
            .arg(sentence + 1)
            .arg(prefix);
    });
}

QString sentenceProgressText(int done, int total, qint64 millisecondsLeft, bool running)
{
    return liveText([=] {
        // The Documents view's strings (it had them first): one translation serves both views.
        QString text = QCoreApplication::translate("glosa::DocumentsView", "%1 / %2 sentences")
                           .arg(done)
                           .arg(total);
        if (!running || done >= total)
            return text;
        if (millisecondsLeft < 0)
            return text + QCoreApplication::translate("glosa::DocumentsView",
                                                      ", estimating the time left…");
        const qint64 seconds = (millisecondsLeft + 500) / 1000;
        const QString left =
            seconds < 60
                ? QCoreApplication::translate("glosa::DocumentsView", "%n s", nullptr, int(seconds))
                : QCoreApplication::translate("glosa::DocumentsView", "%1 min %2 s")
                      .arg(seconds / 60)
                      .arg(seconds % 60);
        return text +
               QCoreApplication::translate("glosa::DocumentsView", ", about %1 left").arg(left);
    });
}

} // namespace glosa
