import type { ComboStrategy } from '../../../src-shared/domain/combo';
import type { CandidateFacts, OrderInput } from './facts';
import {
  keyFirst,
  orderAuto,
  orderContext,
  orderCost,
  orderFusion,
  orderLeastUsed,
  orderPipeline,
} from './health-orders';
import { orderFillFirst, orderLeeway, orderResetAware, orderResetWindow } from './quota-orders';
import { orderDeck, orderWeighted, shuffle } from './random-orders';
import { orderRoundRobin } from './round-robin';
import { orderP2c } from './score-p2c';

/**
 * The one door of the strategies (ROUTE-1): the candidates the plan kept, in the combo's strategy
 * order. Pure: time, randomness and memory come in through `input`. Never drops a candidate.
 */
export function orderByStrategy(
  strategy: ComboStrategy,
  facts: readonly CandidateFacts[],
  input: OrderInput,
): readonly CandidateFacts[] {
  if (facts.length < 2) return facts;
  switch (strategy) {
    case 'priority':
      return facts;
    case 'weighted':
      return orderWeighted(facts, input.rng);
    case 'round-robin':
      return orderRoundRobin(facts, input.roundRobin, (f) => f.key, input.roundRobinRun, input.stickyLimit);
    case 'context-relay':
      return keyFirst(facts, input.conversationHome);
    case 'fill-first':
      return orderFillFirst(facts);
    case 'p2c':
      return orderP2c(facts, input.now, input.rng, input.softPenaltyFactor);
    case 'random':
      return shuffle(facts, input.rng);
    case 'least-used':
      return orderLeastUsed(facts);
    case 'cost-optimized':
      return orderCost(facts);
    case 'reset-aware':
      return orderResetAware(facts);
    case 'reset-window':
      return orderResetWindow(facts, input.now);
    case 'leeway':
      return orderLeeway(facts);
    case 'strict-random':
      return orderDeck(facts, input.deck);
    case 'auto':
      return orderAuto(facts, input.softPenaltyFactor);
    case 'lkgp':
      return keyFirst(facts, input.lastGood);
    case 'context-optimized':
      return orderContext(facts, input.promptTokens);
    case 'cache-optimized':
      return keyFirst(orderLeastUsed(facts), input.conversationHome);
    case 'fusion':
      return orderFusion(facts);
    case 'pipeline':
      return orderPipeline(facts, input.pipelineCursor);
  }
}
