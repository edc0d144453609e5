// Public API of engine/countdowns; owned by its area.
export {};
