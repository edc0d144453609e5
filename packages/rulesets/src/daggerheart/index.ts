// The daggerheart ruleset; public API.
export {};
