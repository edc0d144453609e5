// Remembers this table on the device (the landing page's recent list) once its view arrives. Its own module so a
// phone's first download carries the hook, not the landing page's list.
import { useEffect } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { deviceStore, remember, type RecentTable } from '../lib/recent.ts';

export function useRemember(world: World | undefined, role: RecentTable['role'], seat?: string): void {
  const name = world?.name;
  const rulesetId = world?.rulesetId;
  useEffect(() => {
    if (name === undefined || rulesetId === undefined) return;
    remember(deviceStore(), { hash: location.hash.replace(/^#/, ''), name, rulesetId, role, ...(seat !== undefined ? { seat } : {}), seen: Date.now() });
  }, [name, rulesetId, role, seat]);
}
