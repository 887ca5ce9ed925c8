// Helpers on the Compare view's search traces, for the GUI tests that steer the search.
#pragma once

#include "app/core/inference/inferenceresult.h"

#include <QSet>

namespace glosa::test {

// A node off the best path of `trace`, two or more tokens deep, that is not an end token: the
// most probable such node (the one a curious user clicks first), -1 when there is none.
inline int offPathNode(const SentenceTrace &trace, const QSet<int> &avoid = {})
{
    const QList<int> best = trace.bestPath();
    int chosen = -1;
    for (const engine::TraceNode &n : trace.trace.nodes) {
        if (n.parent < 0 || n.step < 1 || best.contains(n.id) || avoid.contains(n.id))
            continue;
        bool ends = false;
        trace.words({n.token}, &ends);
        if (ends)
            continue;
        if (chosen < 0 || n.cumulativeLogProb > trace.trace.nodes[chosen].cumulativeLogProb)
            chosen = n.id;
    }
    return chosen;
}

} // namespace glosa::test
