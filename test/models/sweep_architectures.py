"""Exports 24 architectures beyond the corpus with both exporters, for a
sweep of the importer: the corpus families with the attention transformers
picks by default (SDPA), and more families (Qwen2, Mistral, Gemma, Phi-3,
OPT, BART, ELECTRA, CLIP, DeiT, SegFormer, Whisper, MPNet, BEiT, DINOv2,
DeBERTa-v2, wav2vec2). Tiny configs, random weights, no downloads; the
files are make_models.py's (same loop and manifest), but not committed.

Usage: python3 test/models/sweep_architectures.py OUT_DIR
then, on the compiler's machine, for each OUT_DIR/<family>-<exporter>.onnx:
  prec-translate --import-onnx M.onnx -o M.mlir
  prec-run M.mlir --load-inputs <family>.in.npz --compare M.out.npz \
      --atol 1e-4 --rtol 1e-3
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_models as mm  # noqa: E402
from make_models import TextLastHidden, PixelLastHidden, text_inputs, image_inputs, VOCAB
import numpy as np
import torch
from torch import nn


def text(model_cls, cfg, **kw):
    return TextLastHidden(model_cls(cfg, **kw)), text_inputs(), ["last_hidden_state"]


# What the decoder configs below share.
DECODER = dict(vocab_size=VOCAB, hidden_size=64, intermediate_size=128,
               num_hidden_layers=2, num_attention_heads=4,
               max_position_embeddings=64, use_cache=False)


def qwen2():
    from transformers import Qwen2Config, Qwen2Model
    return text(Qwen2Model, Qwen2Config(num_key_value_heads=2, **DECODER))


def mistral():
    from transformers import MistralConfig, MistralModel
    return text(MistralModel, MistralConfig(num_key_value_heads=2, sliding_window=8,
                                            **DECODER))


def gemma():
    from transformers import GemmaConfig, GemmaModel
    return text(GemmaModel, GemmaConfig(num_key_value_heads=1, head_dim=16, **DECODER))


def phi3():
    from transformers import Phi3Config, Phi3Model
    return text(Phi3Model, Phi3Config(num_key_value_heads=4, pad_token_id=0, **DECODER))


def opt():
    from transformers import OPTConfig, OPTModel
    return text(OPTModel, OPTConfig(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
        ffn_dim=128, num_attention_heads=4, max_position_embeddings=64,
        word_embed_proj_dim=64, use_cache=False))


def bart_encoder():
    from transformers import BartConfig, BartModel
    cfg = BartConfig(vocab_size=VOCAB, d_model=64, encoder_layers=2, decoder_layers=1,
        encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=128,
        decoder_ffn_dim=128, max_position_embeddings=64)
    return TextLastHidden(BartModel(cfg).get_encoder()), text_inputs(), ["last_hidden_state"]


def electra():
    from transformers import ElectraConfig, ElectraModel
    return text(ElectraModel, ElectraConfig(vocab_size=VOCAB, embedding_size=32, hidden_size=64,
        num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
        max_position_embeddings=64))


def deberta_v2():
    from transformers import DebertaV2Config, DebertaV2Model
    return text(DebertaV2Model, DebertaV2Config(vocab_size=VOCAB, hidden_size=64,
        num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
        max_position_embeddings=64, relative_attention=True, position_buckets=16,
        pos_att_type=["p2c", "c2p"]))


def mpnet():
    from transformers import MPNetConfig, MPNetModel
    return text(MPNetModel, MPNetConfig(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
        num_attention_heads=4, intermediate_size=128, max_position_embeddings=64))


def clip_text():
    from transformers import CLIPTextConfig, CLIPTextModel
    return text(CLIPTextModel, CLIPTextConfig(vocab_size=VOCAB, hidden_size=64,
        intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
        max_position_embeddings=16))


def pixels(model, hw, name="pixel_values"):
    return PixelLastHidden(model), image_inputs(hw, name), ["last_hidden_state"]


def clip_vision():
    from transformers import CLIPVisionConfig, CLIPVisionModel
    return pixels(CLIPVisionModel(CLIPVisionConfig(hidden_size=64, intermediate_size=128,
        num_hidden_layers=2, num_attention_heads=4, image_size=32, patch_size=8)), 32)


def deit():
    from transformers import DeiTConfig, DeiTModel
    return pixels(DeiTModel(DeiTConfig(hidden_size=64, num_hidden_layers=2,
        num_attention_heads=4, intermediate_size=128, image_size=32, patch_size=8),
        add_pooling_layer=False), 32)


def beit():
    from transformers import BeitConfig, BeitModel
    return pixels(BeitModel(BeitConfig(hidden_size=64, num_hidden_layers=2,
        num_attention_heads=4, intermediate_size=128, image_size=32, patch_size=8,
        use_relative_position_bias=True), add_pooling_layer=False), 32)


def dinov2():
    from transformers import Dinov2Config, Dinov2Model
    return pixels(Dinov2Model(Dinov2Config(hidden_size=64, num_hidden_layers=2,
        num_attention_heads=4, mlp_ratio=2, image_size=32, patch_size=8)), 32)


def segformer():
    from transformers import SegformerConfig, SegformerModel
    return pixels(SegformerModel(SegformerConfig(num_encoder_blocks=2, depths=[1, 1],
        sr_ratios=[2, 1], hidden_sizes=[16, 32], patch_sizes=[7, 3], strides=[4, 2],
        num_attention_heads=[1, 2], mlp_ratios=[2, 2], decoder_hidden_size=32)), 32)


class AudioLastHidden(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_features):
        return self.model(input_features)[0]


def whisper_encoder():
    from transformers import WhisperConfig
    from transformers.models.whisper.modeling_whisper import WhisperEncoder
    cfg = WhisperConfig(d_model=64, encoder_layers=2, encoder_attention_heads=4,
        encoder_ffn_dim=128, num_mel_bins=16, max_source_positions=16, vocab_size=VOCAB)
    rng = np.random.default_rng(0)
    feats = {"input_features": rng.standard_normal((1, 16, 32)).astype(np.float32)}
    return AudioLastHidden(WhisperEncoder(cfg)), feats, ["last_hidden_state"]


def wav2vec2():
    from transformers import Wav2Vec2Config, Wav2Vec2Model
    cfg = Wav2Vec2Config(hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=128, conv_dim=(16, 16), conv_stride=(5, 2), conv_kernel=(10, 3),
        num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4, vocab_size=VOCAB)
    rng = np.random.default_rng(0)
    wave = {"input_values": rng.standard_normal((1, 400)).astype(np.float32)}
    class W(nn.Module):
        def __init__(s, m):
            super().__init__(); s.m = m
        def forward(s, input_values):
            return s.m(input_values)[0]
    return W(Wav2Vec2Model(cfg)), wave, ["last_hidden_state"]


mm.FAMILIES = [
    ("bert_sdpa", mm.sdpa_attention(mm.bert)), ("gpt2_sdpa", mm.sdpa_attention(mm.gpt2)), ("llama_sdpa", mm.sdpa_attention(mm.llama)),
    ("vit_sdpa", mm.sdpa_attention(mm.vit)), ("roberta_sdpa", mm.sdpa_attention(mm.roberta)),
    ("distilbert_sdpa", mm.sdpa_attention(mm.distilbert)), ("t5_sdpa", mm.sdpa_attention(mm.t5_encoder)),
    ("qwen2", qwen2), ("mistral", mistral), ("gemma", gemma), ("phi3", phi3), ("opt", opt),
    ("bart_encoder", bart_encoder), ("electra", electra), ("clip_text", clip_text),
    ("clip_vision", clip_vision), ("deit", deit), ("segformer", segformer),
    ("whisper_encoder", whisper_encoder), ("mpnet", mpnet), ("beit", beit), ("dinov2", dinov2),
    ("deberta_v2", deberta_v2), ("wav2vec2", wav2vec2),
]
if __name__ == "__main__":
    mm.main()
