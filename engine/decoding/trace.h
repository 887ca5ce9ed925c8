// Decoding traces: what the search saw and decided, for the GUI's beam-tree view, per-step
// probability charts and alignment heatmaps. Only filled when DecodingOptions::trace is set, so a
// plain translation pays nothing for them.
//
// Every strategy produces the same shape:
//   - nodes: the search tree of one sentence. Node 0 is the root (the start token, step -1).
//     Each expanded candidate is a node: beam search records the 2×beam best candidates per step
//     plus the tokens blocked by n-gram rules; greedy and sampling record the chosen token and the
//     blocked ones. A sampling request with several samples has one chain per sample under the
//     root.
//   - steps: for every (step, expanded node), the top-N tokens and their probability after each
//     stage of the pipeline: "model" (the model's distribution), one stage per logits processor
//     (by name), and for sampling the sampling chain's stages, named by their decoding fields
//     ("temperature", "top-k", "top-p", and "min-p" while on: sampler.h; renormalised).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace glosa::engine {

enum class NodeFate : std::uint8_t {
    Kept,           // continued to the next step
    Pruned,         // a candidate that did not make the beam (or an EOS ranked below the beam)
    Finished,       // ended the hypothesis: EOS, or the maximum length was reached
    BlockedByNgram, // its log-probability was set to -inf by the no-repeat n-gram rule
};

const char *nodeFateName(NodeFate fate); // "kept", "pruned", "finished", "blocked"

struct TraceNode
{
    std::int32_t id = 0;      // index in DecodingTrace::nodes
    std::int32_t parent = -1; // -1 for the root
    std::int32_t step = -1;   // index of the target position this token fills; -1 for the root
    std::int32_t token = -1;  // -1 for the root
    // Log-probability of `token` given the parent, after the logits processors (renormalised);
    // for BlockedByNgram nodes the model's log-probability before blocking.
    float logProb = 0.0f;
    float cumulativeLogProb = 0.0f; // sum of logProb from the root
    // The score the hypothesis would get if it finished here (length and coverage penalties).
    float normalizedScore = 0.0f;
    NodeFate fate = NodeFate::Kept;
};

struct StepTrace
{
    std::int32_t step = 0;    // target position being predicted
    std::int32_t node = 0;    // the TraceNode being expanded (its children are this step's tokens)
    std::int32_t chosen = -1; // greedy / sampling: the token picked; beam: -1 (see the nodes)
    // The union of each stage's top-N tokens, best first by the final stage.
    std::vector<std::int32_t> tokens;
    // [stage][token]: probability of tokens[i] after that stage (DecodingTrace::stages).
    std::vector<std::vector<float>> probabilities;
};

struct DecodingTrace
{
    std::vector<std::string> stages; // "model", processor names..., sampling stages
    std::vector<TraceNode> nodes;
    std::vector<StepTrace> steps;
};

} // namespace glosa::engine
