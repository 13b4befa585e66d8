#!/usr/bin/env python3
"""Writes tests/fixtures/whisper-fixture/: a tiny Whisper model in the file layout and with the
tensor names transformers.js (v4, @huggingface/transformers) loads for
WhisperForConditionalGeneration with word timestamps, so the tests run the real pipeline without
downloading a model (nothing can be downloaded at test time).

It is not a trained Whisper and not Whisper's architecture inside: its two ONNX graphs have the
inputs and outputs of onnx-community's `*_timestamped` exports (encoder: input_features ->
last_hidden_state; merged decoder: input_ids, encoder_hidden_states, past_key_values.0.decoder.* ->
logits, present.0.{decoder,encoder}.*, cross_attentions.0) and hand-set weights, so that what it
says is known in advance:

- the decoder is a bigram table: <|transcribe|> -> <|0.00|> -> " alpha" -> ... -> " lima" ->
  <|30.00|> -> <|endoftext|>, twelve words in every 30 s window whatever the sound;
- its one cross-attention head (the alignment head) puts word k's attention on a Cauchy bump
  (half width 10 encoder frames) at 1.25 + 2.5 k seconds of the window, <|0.00|>'s and the prompt's
  at 0 s and <|30.00|>'s at 30 s. Heavy tails keep every row different at every frame (the DTW in
  transformers.js z-scores each frame across tokens: equal rows would divide 0 by 0), so the
  nearest bump wins each frame and word k starts about half way from the word before it;
- the encoder's output per 20 ms frame is [u, u^2, 1, loudness] with u = frame / 1500.

Rerun (needs `pip install onnx numpy tokenizers`; made with onnx 1.23.2, numpy 2.4.6, tokenizers
0.23.3, from PyPI):
    python3 scripts/make-whisper-fixture.py
The output is deterministic (the same bytes on a second run); tests/js/whisper*.test.mjs read it. It also writes
tests/fixtures/whisper-fixture-segments/, the same model whose decoder has no cross_attentions.
"""

import json
import os
import shutil
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures")
OUT = os.path.join(FIXTURES, "whisper-fixture")
# The same model with a decoder exported without its cross-attentions (as onnx-community's plain
# whisper-* exports are): transformers.js cannot time words, only segments.
SEGMENTS_ONLY = os.path.join(FIXTURES, "whisper-fixture-segments")
WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"]
LANGUAGES = ["en", "fr", "de"]
FRAMES = 1500  # encoder frames per 30 s window (Whisper's max_source_positions)
D = 4  # d_model: [u, u^2, 1, loudness]
SIGMA = 10.0 / FRAMES  # the bump's width, in u
WORD_TIME = [1.25 + 2.5 * k for k in range(len(WORDS))]
OPSET = 17


def tokenizer():
    """A byte-level BPE whose merges make each fixture word one token, then Whisper's special
    tokens in Whisper's order (<|notimestamps|> last of the special ones) and its 1501 timestamp
    tokens (not special, as in Whisper's tokenizer.json)."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    corpus = [" " + " ".join(WORDS)] * 50
    trainer = trainers.BpeTrainer(vocab_size=256 + 80, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    specials = ["<|endoftext|>", "<|startoftranscript|>"] + [f"<|{lang}|>" for lang in LANGUAGES]
    specials += ["<|translate|>", "<|transcribe|>", "<|startoflm|>", "<|startofprev|>", "<|nospeech|>", "<|notimestamps|>"]
    tok.add_special_tokens(specials)
    tok.add_tokens([f"<|{i * 0.02:.2f}|>" for i in range(FRAMES + 1)])
    return tok


def make():
    os.makedirs(os.path.join(OUT, "onnx"), exist_ok=True)
    os.makedirs(os.path.join(SEGMENTS_ONLY, "onnx"), exist_ok=True)
    tok = tokenizer()
    tok.save(os.path.join(OUT, "tokenizer.json"))
    vocab = tok.get_vocab_size()
    tid = tok.token_to_id
    word_ids = []
    for w in WORDS:
        ids = tok.encode(" " + w).ids
        assert len(ids) == 1, (w, ids)
        word_ids.append(ids[0])
    eos, sot, transcribe, notimestamps = tid("<|endoftext|>"), tid("<|startoftranscript|>"), tid("<|transcribe|>"), tid("<|notimestamps|>")
    ts0, ts_end = notimestamps + 1, notimestamps + 1 + FRAMES
    assert ts_end == vocab - 1

    # Bigram: each token of the chain has its own state; every other token is state 0 (-> eos).
    chain = [transcribe, ts0, *word_ids, ts_end]
    following = [ts0, *word_ids, ts_end, eos]
    states = len(chain) + 1
    state_of = np.zeros((vocab, states), np.float32)
    state_of[:, 0] = 1
    table = np.zeros((states, vocab), np.float32)
    table[0, eos] = 20
    for s, (tok_id, nxt) in enumerate(zip(chain, following), start=1):
        state_of[tok_id] = 0
        state_of[tok_id, s] = 1
        table[s, nxt] = 20

    # Cross-attention queries: q . [u, u^2, 1, e] = -(u - u_k)^2 / sigma^2 (0 for the rest: uniform).
    queries = np.zeros((vocab, D), np.float32)
    at = {w: WORD_TIME[k] / 30.0 for k, w in enumerate(word_ids)}
    at.update({t: 0.0 for t in [sot, transcribe, ts0, *(tid(f"<|{lang}|>") for lang in LANGUAGES)]})
    at[ts_end] = 1.0
    for t, uk in at.items():
        queries[t] = [2 * uk / SIGMA**2, -1 / SIGMA**2, -(uk**2) / SIGMA**2, 0]
    # Self-attention keys and values (only cached: the bigram does not read them).
    rng = np.random.default_rng(20261202)
    self_k = rng.standard_normal((vocab, D)).astype(np.float32) * 0.1
    self_v = rng.standard_normal((vocab, D)).astype(np.float32) * 0.1

    write_encoder()
    write_decoder(vocab, state_of, table, queries, self_k, self_v, True, OUT)
    write_decoder(vocab, state_of, table, queries, self_k, self_v, False, SEGMENTS_ONLY)

    config = {
        "architectures": ["WhisperForConditionalGeneration"],
        "model_type": "whisper",
        "d_model": D,
        "encoder_layers": 1,
        "decoder_layers": 1,
        "encoder_attention_heads": 1,
        "decoder_attention_heads": 1,
        "encoder_ffn_dim": D,
        "decoder_ffn_dim": D,
        "num_mel_bins": 80,
        "max_source_positions": FRAMES,
        "max_target_positions": 448,
        "vocab_size": vocab,
        "pad_token_id": eos,
        "bos_token_id": eos,
        "eos_token_id": eos,
        "decoder_start_token_id": sot,
        "median_filter_width": 7,
        "is_encoder_decoder": True,
        "neuralcut_fixture": "scripts/make-whisper-fixture.py: not a trained model",
    }
    generation = {
        "alignment_heads": [[0, 0]],
        "decoder_start_token_id": sot,
        "eos_token_id": eos,
        "pad_token_id": eos,
        "bos_token_id": eos,
        "max_length": 448,
        "is_multilingual": True,
        "lang_to_id": {f"<|{lang}|>": tid(f"<|{lang}|>") for lang in LANGUAGES},
        "task_to_id": {"transcribe": transcribe, "translate": tid("<|translate|>")},
        "no_timestamps_token_id": notimestamps,
        "prev_sot_token_id": tid("<|startofprev|>"),
        "max_initial_timestamp_index": 50,
        "begin_suppress_tokens": [],
        "suppress_tokens": [],
    }
    preprocessor = {
        "chunk_length": 30,
        "feature_extractor_type": "WhisperFeatureExtractor",
        "feature_size": 80,
        "hop_length": 160,
        "n_fft": 400,
        "n_samples": 480000,
        "nb_max_frames": 3000,
        "padding_side": "right",
        "padding_value": 0.0,
        "processor_class": "WhisperProcessor",
        "return_attention_mask": False,
        "sampling_rate": 16000,
    }
    tokenizer_config = {
        "tokenizer_class": "WhisperTokenizer",
        "bos_token": "<|endoftext|>",
        "eos_token": "<|endoftext|>",
        "unk_token": "<|endoftext|>",
        "pad_token": "<|endoftext|>",
        "model_max_length": 448,
        "clean_up_tokenization_spaces": True,
    }
    for name, value in [
        ("config.json", config),
        ("generation_config.json", generation),
        ("preprocessor_config.json", preprocessor),
        ("tokenizer_config.json", tokenizer_config),
    ]:
        with open(os.path.join(OUT, name), "w") as f:
            json.dump(value, f, indent=2, sort_keys=True)
            f.write("\n")
    for name in ["config.json", "generation_config.json", "preprocessor_config.json", "tokenizer_config.json", "tokenizer.json", "onnx/encoder_model.onnx"]:
        shutil.copyfile(os.path.join(OUT, name), os.path.join(SEGMENTS_ONLY, name))
    with open(os.path.join(OUT, "fixture.json"), "w") as f:
        json.dump({"words": WORDS, "wordTimes": WORD_TIME, "window": 30}, f, indent=2)
        f.write("\n")


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def save(graph, name, out=None):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="neuralcut-fixture")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out or OUT, "onnx", name))


def write_encoder():
    """input_features [b, 80, 3000] -> last_hidden_state [b, 1500, 4] = [u, u^2, 1, 0] + loudness * [0, 0, 0, 1]."""
    u = np.arange(FRAMES, dtype=np.float32) / FRAMES
    position = np.stack([u, u * u, np.ones_like(u), np.zeros_like(u)], axis=1)[None]
    nodes = [
        helper.make_node("AveragePool", ["input_features"], ["pooled"], kernel_shape=[2], strides=[2]),
        helper.make_node("ReduceMean", ["pooled"], ["loud"], axes=[1], keepdims=1),
        helper.make_node("Transpose", ["loud"], ["loud_t"], perm=[0, 2, 1]),
        helper.make_node("Mul", ["loud_t", "loud_axis"], ["loud_feature"]),
        helper.make_node("Add", ["loud_feature", "position"], ["last_hidden_state"]),
    ]
    graph = helper.make_graph(
        nodes,
        "encoder",
        [helper.make_tensor_value_info("input_features", TensorProto.FLOAT, ["batch_size", 80, 3000])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch_size", FRAMES, D])],
        [const("position", position.astype(np.float32)), const("loud_axis", np.array([0, 0, 0, 1], np.float32))],
    )
    save(graph, "encoder_model.onnx")


def write_decoder(vocab, state_of, table, queries, self_k, self_v, attentions, out):
    f = TensorProto.FLOAT
    nodes = [
        # Bigram logits.
        helper.make_node("Gather", ["state_of", "input_ids"], ["state"]),
        helper.make_node("MatMul", ["state", "table"], ["logits"]),
        # Self-attention cache: past + this step's keys and values, [b, 1, seq, 4].
        helper.make_node("Gather", ["self_k", "input_ids"], ["k_new3"]),
        helper.make_node("Gather", ["self_v", "input_ids"], ["v_new3"]),
        helper.make_node("Unsqueeze", ["k_new3", "axis1"], ["k_new"]),
        helper.make_node("Unsqueeze", ["v_new3", "axis1"], ["v_new"]),
        helper.make_node("Concat", ["past_key_values.0.decoder.key", "k_new"], ["present.0.decoder.key"], axis=2),
        helper.make_node("Concat", ["past_key_values.0.decoder.value", "v_new"], ["present.0.decoder.value"], axis=2),
        # Cross-attention over the encoder's frames: its weights are the alignment head's.
        helper.make_node("Unsqueeze", ["encoder_hidden_states", "axis1"], ["present.0.encoder.key"]),
        helper.make_node("Identity", ["present.0.encoder.key"], ["present.0.encoder.value"]),
        helper.make_node("Gather", ["queries", "input_ids"], ["q3"]),
        helper.make_node("Unsqueeze", ["q3", "axis1"], ["q"]),
        helper.make_node("Transpose", ["present.0.encoder.key"], ["k_t"], perm=[0, 1, 3, 2]),
        helper.make_node("MatMul", ["q", "k_t"], ["scores"]),
        # Cauchy weights 1 / (1 + d^2 / sigma^2), each row summing to 1.
        helper.make_node("Sub", ["one", "scores"], ["spread"]),
        helper.make_node("Reciprocal", ["spread"], ["bump"]),
        helper.make_node("ReduceSum", ["bump", "last_axis"], ["total"], keepdims=1),
        helper.make_node("Div", ["bump", "total"], ["cross_attentions.0"]),
    ]
    if not attentions:
        nodes = [n for n in nodes if n.output[0] in ("state", "logits", "k_new3", "v_new3", "k_new", "v_new") or n.output[0].startswith("present")]
    past = lambda n: helper.make_tensor_value_info(n, f, ["batch_size", 1, "past_decoder_sequence_length", D])
    graph = helper.make_graph(
        nodes,
        "decoder",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch_size", "decoder_sequence_length"]),
            helper.make_tensor_value_info("encoder_hidden_states", f, ["batch_size", "encoder_sequence_length", D]),
            past("past_key_values.0.decoder.key"),
            past("past_key_values.0.decoder.value"),
        ],
        [
            helper.make_tensor_value_info("logits", f, ["batch_size", "decoder_sequence_length", vocab]),
            helper.make_tensor_value_info("present.0.decoder.key", f, ["batch_size", 1, "present_decoder_sequence_length", D]),
            helper.make_tensor_value_info("present.0.decoder.value", f, ["batch_size", 1, "present_decoder_sequence_length", D]),
            helper.make_tensor_value_info("present.0.encoder.key", f, ["batch_size", 1, "encoder_sequence_length", D]),
            helper.make_tensor_value_info("present.0.encoder.value", f, ["batch_size", 1, "encoder_sequence_length", D]),
        ]
        + (
            [helper.make_tensor_value_info("cross_attentions.0", f, ["batch_size", 1, "decoder_sequence_length", "encoder_sequence_length"])]
            if attentions
            else []
        ),
        [
            const("state_of", state_of),
            const("table", table),
            const("queries", queries),
            const("self_k", self_k),
            const("self_v", self_v),
            const("axis1", np.array([1], np.int64)),
            const("last_axis", np.array([-1], np.int64)),
            const("one", np.array(1, np.float32)),
        ],
    )
    if not attentions:
        # Initializers no node reads are left out.
        used = {i for n in graph.node for i in n.input}
        kept = [t for t in graph.initializer if t.name in used]
        del graph.initializer[:]
        graph.initializer.extend(kept)
    save(graph, "decoder_model_merged.onnx", out)


if __name__ == "__main__":
    make()
    print(f"wrote {os.path.normpath(OUT)}", file=sys.stderr)
