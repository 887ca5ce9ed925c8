// ONNX Runtime side of the translation benchmark (docs/benchmarks.md): decodes source
// token ids with the graphs of tools/export_onnx.py in onnxruntime-node, with the same batching,
// maximum length and searches as build/bin/bench_translate and tools/bench/translate_torch.py.
// SentencePiece is not available in Node, so the caller tokenises (ids in, ids out); the timed
// loop therefore excludes (de)tokenisation, which the two other sides include (~µs a sentence).
//
//   node tools/bench/ort_translate.mjs --ort-dir DIR --graphs build/onnx/transformer-en-es \
//       --ids ids.json --strategy greedy --batch 32 --threads 1 --output out.json
//
// DIR holds node_modules/onnxruntime-node (export_onnx.ensure_onnxruntime_node installs it).
// ids.json: [[source ids + EOS], ...]. Prints one JSON line (sentences/s, target tokens/s with
// EOS excluded, seconds of the decoding loop, peak resident memory of the process with the
// model and Node itself); --output writes {"ids": [[target ids], ...]} in input order.
//
// --check REQUEST --check-out FILE: REQUEST is {"sources": [...], "targets": [[BOS, ...], ...]};
// runs the encoder once on the padded batch and teacher-forces the targets through the
// decoder-step graph with its cache, writing float32 log-probs [B, T, vocab] (T = longest
// target, zeros past each row's end) for export_onnx.py to compare with PyTorch.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

function parseArgs(argv) {
  const o = { strategy: 'greedy', beam: 4, alpha: 0.6, batch: 1, threads: 1, maxLenA: 1.5,
              maxLenB: 10, warmup: 8 };
  const names = { '--ort-dir': 'ortDir', '--graphs': 'graphs', '--ids': 'ids', '--output': 'output',
                  '--strategy': 'strategy', '--beam': 'beam', '--alpha': 'alpha', '--batch': 'batch',
                  '--threads': 'threads', '--max-len-a': 'maxLenA', '--max-len-b': 'maxLenB',
                  '--warmup': 'warmup', '--check': 'check', '--check-out': 'checkOut' };
  for (let i = 2; i < argv.length; i += 2) {
    const key = names[argv[i]];
    if (!key || i + 1 >= argv.length) throw new Error('unknown option or missing value: ' + argv[i]);
    o[key] = typeof o[key] === 'number' ? Number(argv[i + 1]) : argv[i + 1];
  }
  if (!o.ortDir || !o.graphs) throw new Error('--ort-dir and --graphs are required');
  return o;
}

const opts = parseArgs(process.argv);
const ort = createRequire(path.join(path.resolve(opts.ortDir), 'package.json'))('onnxruntime-node');
const meta = JSON.parse(readFileSync(path.join(opts.graphs, 'manifest.json'), 'utf8'));
const { pad_id: PAD, bos_id: BOS, eos_id: EOS, vocab_size: V, heads: H, d_head: DH, top_k: K } = meta;

// One intra-op thread by default (what the engine and the PyTorch side get); one inter-op
// thread and sequential execution, since a step is a chain of small ops.
const sessionOptions = { intraOpNumThreads: opts.threads, interOpNumThreads: 1,
                         executionMode: 'sequential', graphOptimizationLevel: 'all' };
const encoder = await ort.InferenceSession.create(path.join(opts.graphs, 'encoder.onnx'), sessionOptions);
const decoder = await ort.InferenceSession.create(path.join(opts.graphs, 'decoder_step.onnx'), sessionOptions);

const int64 = (values, dims) => new ort.Tensor('int64', BigInt64Array.from(values, BigInt), dims);

// Rows `index` of a tensor whose first axis is the rows (beam reordering, beam expansion).
function gatherRows(t, index) {
  const row = t.data.length / t.dims[0];
  const data = new t.data.constructor(index.length * row);
  index.forEach((r, j) => data.set(t.data.subarray(r * row, (r + 1) * row), j * row));
  return new ort.Tensor(t.type, data, [index.length, ...t.dims.slice(1)]);
}

function padSources(batch) {
  const S = Math.max(...batch.map((s) => s.length));
  const flat = new Array(batch.length * S).fill(PAD);
  batch.forEach((s, b) => s.forEach((id, j) => { flat[b * S + j] = id; }));
  return int64(flat, [batch.length, S]);
}

// The decoder's feeds for `rows` rows from the encoder outputs: cross keys/values and padding
// as given, an empty self-attention cache (t = 0).
function startFeeds(enc, rows) {
  const feeds = { src_pad: enc.src_pad };
  for (const name of meta.cross) feeds[name] = enc[name];
  for (const name of meta.past) feeds[name] = new ort.Tensor('float32', new Float32Array(0), [rows, H, 0, DH]);
  return feeds;
}

// One decoder step; the cache moves from present_* to past_*. Returns the rows' K best
// (log-prob, id) with PAD/BOS suppressed (top_*, see export_onnx.py), or with `full` the whole
// log_probs [rows, V] (the check).
async function step(feeds, tokens, position, full = false) {
  feeds.token = int64(tokens, [tokens.length, 1]);
  feeds.position = int64([position], [1]);
  const fetches = (full ? ['log_probs'] : ['top_log_probs', 'top_ids']).concat(meta.present);
  // onnxruntime-node 1.20.1 returns the fetched values in fetch order but names them after the
  // graph's first outputs (log_probs, top_log_probs, ...), so they are taken by position.
  const values = Object.values(await decoder.run(feeds, fetches));
  const out = Object.fromEntries(fetches.map((name, i) => [name, values[i]]));
  if (!full && out.top_ids.type !== 'int64') throw new Error('unexpected order of fetched outputs');
  meta.past.forEach((name, i) => { feeds[name] = out[meta.present[i]]; });
  if (full) return out.log_probs.data;
  return { logp: out.top_log_probs.data, ids: Int32Array.from(out.top_ids.data, Number) };
}

// Transformer.greedy's rules: PAD and BOS suppressed, a row stops at EOS, the batch when every
// row has stopped or after maxLen steps (capped by the positional table). Finished rows stay in
// the batch, as in the PyTorch baseline.
async function greedy(batch, maxLen) {
  const enc = await encoder.run({ src: padSources(batch) });
  const B = batch.length;
  const feeds = startFeeds(enc, B);
  const out = batch.map(() => []);
  const done = new Array(B).fill(false);
  let tokens = new Array(B).fill(BOS);
  for (let t = 0; t < Math.min(maxLen, meta.max_positions - 1); ++t) {
    const { ids } = await step(feeds, tokens, t);
    tokens = tokens.map((_, b) => {
      const best = ids[b * K];
      if (!done[b] && best !== EOS) out[b].push(best);
      if (best === EOS) done[b] = true;
      return best;
    });
    if (done.every(Boolean)) break;
  }
  return out;
}

// A port of tools/evaluate.py beam_search (the PyTorch baseline's search): scores are sums of
// log-probs, a hypothesis that emits EOS among the 2k best candidates is finished with score /
// ((5 + n) / 6)^alpha, a sentence stops at k finished hypotheses, live ones are finished at
// maxLen. The cross keys/values are expanded to k rows once; only the self-attention cache is
// gathered after each step (a row's beam origin is always a row of the same sentence).
async function beamSearch(batch, maxLen, k, alpha) {
  if (2 * k > K) throw new Error(`beam ${k} needs the graph's top_k >= ${2 * k} (export_onnx.py --top-k)`);
  const enc = await encoder.run({ src: padSources(batch) });
  const B = batch.length;
  const expand = [];
  for (let b = 0; b < B; ++b) for (let j = 0; j < k; ++j) expand.push(b);
  const feeds = startFeeds(enc, B * k);
  feeds.src_pad = gatherRows(enc.src_pad, expand);
  for (const name of meta.cross) feeds[name] = gatherRows(enc[name], expand);
  const lp = (n) => Math.pow((5 + n) / 6, alpha);
  let ys = expand.map(() => []);
  let scores = expand.map((_, r) => (r % k === 0 ? 0 : -Infinity));
  let tokens = expand.map(() => BOS);
  const finished = batch.map(() => []);
  const done = new Array(B).fill(false);
  let steps = 0;
  for (let t = 0; t < maxLen; ++t) {
    const { logp, ids } = await step(feeds, tokens, t);
    steps = t + 1;
    const rows = [], nextTokens = [], nextScores = [];
    for (let b = 0; b < B; ++b) {
      const r0 = rows.length;
      if (!done[b]) {
        // the 2k best (score, row, token) of the sentence's k rows, best first, from each
        // row's 2k best
        const top = [];
        for (let j = 0; j < k; ++j) {
          const r = b * k + j, base = scores[r];
          if (base === -Infinity) continue;
          for (let i = 0, o = r * K; i < 2 * k; ++i, ++o) {
            const s = base + logp[o];
            if (top.length === 2 * k && s <= top[top.length - 1][0]) break;
            let n = top.length;
            while (n > 0 && top[n - 1][0] < s) --n;
            top.splice(n, 0, [s, r, ids[o]]);
            if (top.length > 2 * k) top.pop();
          }
        }
        for (const [s, r, v] of top) {
          if (v === EOS) finished[b].push([s / lp(t + 1), ys[r]]);
          else { rows.push(r); nextTokens.push(v); nextScores.push(s); }
          if (rows.length - r0 === k) break;
        }
        if (finished[b].length >= k) done[b] = true;
      }
      // fixed shapes: dead or done sentences keep -inf rows
      while (rows.length - r0 < k) { rows.push(b * k); nextTokens.push(PAD); nextScores.push(-Infinity); }
      if (done[b]) nextScores.fill(-Infinity, r0, r0 + k);
    }
    if (done.every(Boolean)) break;
    ys = rows.map((r, j) => ys[r].concat([nextTokens[j]]));
    scores = nextScores;
    tokens = nextTokens;
    for (const name of meta.past) feeds[name] = gatherRows(feeds[name], rows);
  }
  return batch.map((_, b) => {
    if (!done[b]) {
      for (let j = 0; j < k; ++j) {
        const r = b * k + j;
        if (scores[r] > -Infinity) finished[b].push([scores[r] / lp(steps), ys[r]]);
      }
    }
    let best = null;
    for (const f of finished[b]) if (best === null || f[0] > best[0]) best = f;
    return best ? best[1] : [];
  });
}

// bench_translate's batching: stable sort by source length, consecutive batches, maximum length
// int(1.5 × longest source (with EOS) + 10) per batch.
async function translate(sources) {
  const order = sources.map((_, i) => i).sort((a, b) => sources[a].length - sources[b].length);
  const out = new Array(sources.length);
  let tokens = 0;
  for (let i = 0; i < order.length; i += opts.batch) {
    const chunk = order.slice(i, i + opts.batch);
    const batch = chunk.map((j) => sources[j]);
    const maxLen = Math.trunc(Math.max(...batch.map((s) => s.length)) * opts.maxLenA + opts.maxLenB);
    const hyps = opts.strategy === 'greedy' ? await greedy(batch, maxLen)
                                            : await beamSearch(batch, maxLen, opts.beam, opts.alpha);
    chunk.forEach((j, n) => { out[j] = hyps[n]; tokens += hyps[n].length; });
  }
  return { out, tokens };
}

async function check() {
  const { sources, targets } = JSON.parse(readFileSync(opts.check, 'utf8'));
  const enc = await encoder.run({ src: padSources(sources) });
  const B = sources.length, T = Math.max(...targets.map((t) => t.length));
  const feeds = startFeeds(enc, B);
  const result = new Float32Array(B * T * V);
  for (let t = 0; t < T; ++t) {
    const logp = await step(feeds, targets.map((row) => (t < row.length ? row[t] : PAD)), t, true);
    for (let b = 0; b < B; ++b) {
      if (t < targets[b].length) result.set(logp.subarray(b * V, (b + 1) * V), (b * T + t) * V);
    }
  }
  writeFileSync(opts.checkOut, Buffer.from(result.buffer));
}

const version = 'onnxruntime-node ' + ort.env.versions.node;
if (opts.check) {
  await check();
  console.log(JSON.stringify({ ort: version, check: opts.checkOut }));
} else {
  const sources = JSON.parse(readFileSync(opts.ids, 'utf8'));
  await translate(sources.slice(0, opts.warmup));
  const start = performance.now();
  const { out, tokens } = await translate(sources);
  const seconds = (performance.now() - start) / 1000;
  if (opts.output) writeFileSync(opts.output, JSON.stringify({ ids: out }));
  const n = sources.length;
  console.log(JSON.stringify({
    engine: version, model: meta.model, compute_type: meta.quantization ? 'int8' : 'float32',
    strategy: opts.strategy === 'greedy' ? 'greedy' : 'beam ' + opts.beam, batch: opts.batch,
    threads: opts.threads, sentences: n, target_tokens: tokens, seconds: +seconds.toFixed(3),
    sentences_per_s: +(n / seconds).toFixed(2), tokens_per_s: +(tokens / seconds).toFixed(1),
    peak_rss_mb: +(process.resourceUsage().maxRSS / 1024).toFixed(1) }));
}
