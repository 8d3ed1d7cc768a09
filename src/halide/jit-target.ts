// implements [HALIDE-TARGET]: the JIT target Halide 14 compiles for, corrected where its own host
// detection claims features the CPU lacks. Halide 14 reads an AMD Zen 4 CPU (AVX-512 with BF16 and
// VNNI but without AVX-512 FP16) as Sapphire Rapids, and code compiled for that target can use FP16
// instructions the CPU does not have: the program dies of SIGILL (docs/halide-findings.md). The
// correction drops only that feature, only when the CPU's flags lack FP16, and never overrides a
// target the user chose through HL_JIT_TARGET.
// It expects Halide imported as `hl`.
export const JIT_TARGET_PY = String.raw`import os  # [HALIDE-TARGET]: Halide 14 reads a Zen 4 CPU, which lacks AVX-512 FP16, as Sapphire Rapids
_sr, _cpu = hl.TargetFeature.AVX512_SapphireRapids, open('/proc/cpuinfo').read() if os.path.exists('/proc/cpuinfo') else 'avx512_fp16'
if 'HL_JIT_TARGET' not in os.environ and hl.get_host_target().has_feature(_sr) and 'avx512_fp16' not in _cpu: os.environ['HL_JIT_TARGET'] = hl.get_host_target().without_feature(_sr).to_string()`;
