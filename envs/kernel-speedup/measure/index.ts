/**
 * Measuring kernels (pure logic over the core KernelLab interface): correctness, timing and the
 * anti-hacking rules, the AssemblyScript glue, the attacker's inputs, and the `kernel-measure`
 * effect handler. See ../README.md for the protocol and every code.
 */
export { MEASURE_CODES, CODE_MEANING, HACK_CODES, isMeasureCode, type MeasureCode } from './codes';
export { measureKernel, MEASURE_DEFAULTS, robustCv, type MeasureOptions } from './measure';
export { REVIEW_FACTOR, reviewThreshold, reviewed } from './review';
export { compareKernelResults } from './rerun';
export { prepareKernel, PROBE_OUTPUT, RESERVED_PREFIX, type PreparedKernel } from './instrument';
export { compareOutputs, outputsHash, lowerPrecision, countShortMantissas, type Comparison } from './compare';
export { bootstrapMedianInterval, median, coefficientOfVariation, quantileSorted, smoothingBandwidth, standardDeviation } from './stats';
export { numel, outputSpecs, outputNames, trialInputs, dimsProblem, seededShapes, shapeText, freshSecret, streamSeed } from './inputs';
export { assemblyScriptGlue, assemblyScriptSignature } from './assemblyscript';
export { candidateSource, candidateProblem, type Candidate, type CandidateSource } from './candidate';
export { attackProblem, materializeAttack, runAttack, valueProblem, MAX_EXPLICIT, type AttackInput, type TensorFill } from './attack';
export { KERNEL_MEASURE_EFFECT, kernelMeasureHandler, performKernelRequest, type KernelEffectRequest, type KernelEffectResult, type MeasureRequest, type AttackRequest } from './handler';
export type { Measurement, TimingSummary, TrialCheck, AttackResult, TrialKind, Review } from './types';
