import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { type CSSProperties, useEffect, useRef, useState } from 'react';

/** Failed tiles, with none loaded, after which the map says it shows positions only. */
const FAILED_TILES_BEFORE_PLAIN = 4;

/**
 * The plain background a Leaflet map shows without tiles: the canvas colour with a faint grid.
 * Set inline on the map's element, so Leaflet's own grey background does not win.
 */
export const PLAIN_MAP_BACKGROUND: CSSProperties = {
  backgroundColor: 'var(--color-canvas)',
  backgroundImage:
    'linear-gradient(var(--color-line) 1px, transparent 1px), linear-gradient(90deg, var(--color-line) 1px, transparent 1px)',
  backgroundSize: '32px 32px',
};

/** For text put into a marker's or tooltip's HTML (names come from members). */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * One Leaflet map on the element `el` is given to (the cruise map, the admin spots map): tiles
 * from configuration (`tileUrl`, a Leaflet URL template, or null), failed tiles hidden and
 * counted, and `plain` true when the map has no street map to show (no tiles configured, or
 * FAILED_TILES_BEFORE_PLAIN failed before any loaded), so the screen can say so. `leaflet` is the
 * map and the layer the caller draws its markers into, null until made: an effect that draws
 * depends on it, so markers are drawn again on a map made anew (another tile source).
 */
export function useLeafletMap(tileUrl: string | null, tileAttribution: string | null) {
  const el = useRef<HTMLElement>(null);
  const [leaflet, setLeaflet] = useState<{ map: L.Map; layer: L.LayerGroup } | null>(null);
  const [tilesFailed, setTilesFailed] = useState(false);

  useEffect(() => {
    if (!el.current) return;
    const m = L.map(el.current, { zoomControl: true, attributionControl: Boolean(tileUrl), preferCanvas: true });
    setLeaflet({ map: m, layer: L.layerGroup().addTo(m) });
    if (tileUrl) {
      let loaded = 0;
      let failed = 0;
      const tiles = L.tileLayer(tileUrl, { attribution: tileAttribution ?? '', maxZoom: 18 });
      tiles.on('tileload', () => {
        loaded += 1;
      });
      tiles.on('tileerror', (e: L.TileErrorEvent) => {
        failed += 1;
        e.tile.style.visibility = 'hidden';
        if (failed >= FAILED_TILES_BEFORE_PLAIN && loaded === 0) setTilesFailed(true);
      });
      tiles.addTo(m);
    }
    return () => {
      m.remove();
      setLeaflet(null);
    };
  }, [tileUrl, tileAttribution]);

  return { el, leaflet, plain: !tileUrl || tilesFailed };
}
