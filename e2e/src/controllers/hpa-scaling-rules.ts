// How an HPA goes from a metric's recommendation to the replicas it sets (horizontal.go): without
// a behavior, the highest recommendation of the downscale stabilization window and a scale-up of at
// most max(2 x current, 4); with a behavior, the scale-up and scale-down stabilization windows and
// the policies' rate limits over their periods (Pods / Percent, selectPolicy Max / Min / Disabled).
// Each result names the AbleToScale and ScalingLimited reasons the status reports.
import type { ScalingRules } from '../apiserver/hpa.js';

interface Timed {
  timeMs: number;
  replicas: number;
}

export interface Normalized {
  replicas: number;
  ableToScale: { reason: string; message: string };
  limited: { status: 'True' | 'False'; reason: string; message: string };
}

export interface Limits {
  current: number;
  min: number;
  max: number;
}

const upStabilized = {
  reason: 'ScaleUpStabilized',
  message: 'recent recommendations were lower than current one, applying the lowest recent recommendation',
};
const downStabilized = {
  reason: 'ScaleDownStabilized',
  message: 'recent recommendations were higher than current one, applying the highest recent recommendation',
};
const ready = { reason: 'ReadyForNewScale', message: 'recommended size matches current size' };
const within = { reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
const tooMany = { reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' };
const tooFew = { reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
const upLimit = { reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' };
const downLimit = { reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' };

/** One HPA's memory between syncs: recent recommendations and, with a behavior, recent scale changes. */
export class ScalingHistory {
  private recommendations: Timed[] = [];
  private scaleUps: Timed[] = [];
  private scaleDowns: Timed[] = [];

  /** Records the recommendation in place of one older than every window, as the controller does. */
  private record(replicas: number, nowMs: number, oldest: number): void {
    const old = this.recommendations.findIndex((r) => r.timeMs < oldest);
    if (old >= 0) this.recommendations[old] = { timeMs: nowMs, replicas };
    else this.recommendations.push({ timeMs: nowMs, replicas });
  }

  /** normalizeDesiredReplicas: no behavior set. */
  normalize(desired: number, limits: Limits, downscaleWindowMs: number, nowMs = Date.now()): Normalized {
    const cutoff = nowMs - downscaleWindowMs;
    const stabilized = Math.max(desired, ...this.recommendations.filter((r) => r.timeMs >= cutoff).map((r) => r.replicas));
    this.record(desired, nowMs, cutoff);
    const scaleUpLimit = Math.max(2 * limits.current, 4);
    const [maxAllowed, maxWhy] = limits.max > scaleUpLimit ? [scaleUpLimit, upLimit] : [limits.max, tooMany];
    let replicas = stabilized;
    let why = within;
    if (stabilized < limits.min) [replicas, why] = [limits.min, tooFew];
    else if (stabilized > maxAllowed) [replicas, why] = [maxAllowed, maxWhy];
    return {
      replicas,
      ableToScale: stabilized !== desired ? downStabilized : ready,
      limited: { status: replicas === stabilized ? 'False' : 'True', ...why },
    };
  }

  /** normalizeDesiredReplicasWithBehaviors. */
  normalizeWithBehavior(desired: number, limits: Limits, up: ScalingRules, down: ScalingRules, nowMs = Date.now()): Normalized {
    const upCutoff = nowMs - (up.stabilizationWindowSeconds ?? 0) * 1000;
    const downCutoff = nowMs - (down.stabilizationWindowSeconds ?? 0) * 1000;
    let upRecommendation = desired;
    let downRecommendation = desired;
    for (const r of this.recommendations) {
      if (r.timeMs > upCutoff) upRecommendation = Math.min(upRecommendation, r.replicas);
      if (r.timeMs > downCutoff) downRecommendation = Math.max(downRecommendation, r.replicas);
    }
    const stabilized = Math.min(Math.max(limits.current, upRecommendation), downRecommendation);
    this.record(desired, nowMs, Math.min(upCutoff, downCutoff));
    const ableToScale = stabilized !== desired ? (desired >= limits.current ? upStabilized : downStabilized) : ready;
    let replicas = stabilized;
    let why = within;
    if (stabilized > limits.current) {
      const rate = Math.max(this.scaleUpLimit(limits.current, up, nowMs), limits.current);
      const [maxAllowed, maxWhy] = limits.max > rate ? [rate, upLimit] : [limits.max, tooMany];
      if (stabilized > maxAllowed) [replicas, why] = [maxAllowed, maxWhy];
    } else if (stabilized < limits.current) {
      const rate = Math.min(this.scaleDownLimit(limits.current, down, nowMs), limits.current);
      const [minAllowed, minWhy] = limits.min < rate ? [rate, downLimit] : [limits.min, tooFew];
      if (stabilized < minAllowed) [replicas, why] = [minAllowed, minWhy];
    }
    return { replicas, ableToScale, limited: { status: replicas === stabilized ? 'False' : 'True', ...why } };
  }

  private changeSince(events: Timed[], periodSeconds: number, nowMs: number): number {
    return events.filter((e) => e.timeMs > nowMs - periodSeconds * 1000).reduce((sum, e) => sum + e.replicas, 0);
  }

  private scaleUpLimit(current: number, rules: ScalingRules, nowMs: number): number {
    if (rules.selectPolicy === 'Disabled') return current;
    const pick = rules.selectPolicy === 'Min' ? Math.min : Math.max;
    let result = rules.selectPolicy === 'Min' ? Infinity : -Infinity;
    for (const p of rules.policies ?? []) {
      const start =
        current - this.changeSince(this.scaleUps, p.periodSeconds, nowMs) + this.changeSince(this.scaleDowns, p.periodSeconds, nowMs);
      result = pick(result, p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100)));
    }
    return Number.isFinite(result) ? result : current;
  }

  private scaleDownLimit(current: number, rules: ScalingRules, nowMs: number): number {
    if (rules.selectPolicy === 'Disabled') return current;
    const pick = rules.selectPolicy === 'Min' ? Math.max : Math.min;
    let result = rules.selectPolicy === 'Min' ? -Infinity : Infinity;
    for (const p of rules.policies ?? []) {
      const start =
        current + this.changeSince(this.scaleDowns, p.periodSeconds, nowMs) - this.changeSince(this.scaleUps, p.periodSeconds, nowMs);
      result = pick(result, p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100)));
    }
    return Number.isFinite(result) ? result : current;
  }

  /** storeScaleEvent: kept for the longest policy period of the direction. */
  scaled(from: number, to: number, up: ScalingRules, down: ScalingRules, nowMs = Date.now()): void {
    const longest = (r: ScalingRules) => Math.max(0, ...(r.policies ?? []).map((p) => p.periodSeconds)) * 1000;
    this.scaleUps = this.scaleUps.filter((e) => e.timeMs > nowMs - longest(up));
    this.scaleDowns = this.scaleDowns.filter((e) => e.timeMs > nowMs - longest(down));
    if (to > from) this.scaleUps.push({ timeMs: nowMs, replicas: to - from });
    else if (to < from) this.scaleDowns.push({ timeMs: nowMs, replicas: from - to });
  }
}
