/**
 * legalActions of kernel-speedup-v1: finite only for the defender when schedules are its only
 * candidates (every legal schedule index, and "stop" after the first revision); open (null) for
 * code, attacks and predictions; empty for seats not to act.
 */
import { STOP } from './actions';
import { actingSeats, seatOf } from './flow';
import { kernelTask } from './tasks';
import { legalScheduleIndices } from './tasks/schedule';
import type { KernelState } from './types';

/** The finite legal actions of `seat`, null for an open set, [] when it is not to act. */
export function legalActions(s: KernelState, seat: number): readonly unknown[] | null {
  if (!actingSeats(s).includes(seat)) return [];
  if (seat === seatOf(s, 'defender') && s.cfg.candidates === 'schedule') {
    const list: unknown[] = [...legalScheduleIndices(kernelTask(s.task))];
    if (s.revisions.length) list.push(STOP);
    return list;
  }
  return null;
}
