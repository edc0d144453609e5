// Public API of engine/odds: exact countdown and chase odds (absorbing Markov chains).
export {
  countdownOdds,
  chaseOdds,
  triggerWithin,
  decreasingOdds,
  type FinalEventOdds,
  type CountdownOdds,
  type ChaseOdds,
  type OutcomePmf,
  type OutcomeSource,
  type Advance,
  type ChaseAdvance,
  type OddsOptions,
} from './countdown-odds.js';
