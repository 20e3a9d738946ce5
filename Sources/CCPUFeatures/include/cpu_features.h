#ifndef MIDIHUB_CPU_FEATURES_H
#define MIDIHUB_CPU_FEATURES_H

/// 1 when the processor has AVX2 and FMA and the kernel saves the 256-bit registers
/// (XGETBV), else 0. x86-64 only; 0 elsewhere.
int midihub_has_avx2_fma(void);

#endif
