-- Layer counts from the nn.Module tree on the other H100 / MI300X pairs: BERT-small has
-- 4 BertLayer blocks, the Falconsai ViT 12 ViTLayer, TimeSformer 12 TimesformerLayer; each
-- trace holds one forward pass. Platforms come from the GPU names.
SELECT side, platform, gpu_events, layers, forward_passes
FROM compare_metadata('../shared/conformance/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz',
                      '../shared/conformance/tracelens/mi300/gaunernst_bert-small-uncased__1016001.json.gz');
SELECT side, platform, gpu_events, layers, forward_passes
FROM compare_metadata('../shared/conformance/tracelens/h100/Falconsai_nsfw_image_detection__1016002.json.gz',
                      '../shared/conformance/tracelens/mi300/Falconsai_nsfw_image_detection__1016002.json.gz');
SELECT side, platform, gpu_events, layers, forward_passes
FROM compare_metadata('../shared/conformance/tracelens/h100/facebook_timesformer-base-finetuned-k400__1016002.json.gz',
                      '../shared/conformance/tracelens/mi300/facebook_timesformer-base-finetuned-k400__1016002.json.gz');
