// BeamTreeWidget: the search tree of one sentence (engine/decoding/trace.h): one column per step,
// nodes coloured by fate (kept, pruned, finished, blocked by n-gram), the best hypothesis's path
// drawn heavier. Clicking a node on the best path selects that token; clicking a node off it
// (pruned, finished, blocked), double-clicking any node or its context menu's "Decode from here"
// asks to decode again with the path to that node forced (decodeFromNode).
#pragma once

#include "app/core/inference/inferenceresult.h"

#include <QWidget>

namespace glosa {

class BeamTreeWidget : public QWidget
{
    Q_OBJECT
public:
    explicit BeamTreeWidget(QWidget *parent = nullptr);

    void setTrace(const SentenceTrace &trace);
    void clear();
    void setSelectedStep(int step);
    int nodeCount() const { return int(m_trace.trace.nodes.size()); }
    // The best hypothesis's nodes from the first token on (root excluded).
    const QList<int> &bestPath() const { return m_bestPath; }
    // Where a node's centre is drawn (the trace's node id); a null point when there is none.
    QPoint nodePosition(int node) const { return m_positions.value(node).toPoint(); }
    // The same for the best path's node at `step`.
    QPoint stepPosition(int step) const;
    QSize sizeHint() const override;
    // In its scroll area the tree scrolls rather than squeezes (or clips) its steps.
    QSize minimumSizeHint() const override { return sizeHint(); }

    // The tokens from the root to `node`: the prefix a decode from it forces.
    QList<int> pathTokens(int node) const { return m_trace.pathTokens(node); }

signals:
    void stepClicked(int step);
    // Decode again with pathTokens(node) forced.
    void decodeFromNode(int node);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    bool event(QEvent *event) override;

private:
    void layoutNodes();
    int nodeAt(const QPoint &position) const;

    SentenceTrace m_trace;
    QList<int> m_bestPath;
    QVector<QPointF> m_positions; // per node
    int m_maxStep = 0;
    int m_rows = 0;
    int m_selectedStep = -1;
};

} // namespace glosa
