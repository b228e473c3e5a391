/** The one implementation lives in the contract, which the console's label preview shares: see there. */
export { labelRuleIssues, RefInterner, type LabelRuleOptions } from '../contract/label-rules.ts';
