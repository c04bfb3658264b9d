import type { NearbyCruiser, Spot } from '@fmk/core';
import L from 'leaflet';
import { useEffect } from 'react';
import { escapeHtml, PLAIN_MAP_BACKGROUND, useLeafletMap } from '../../shared/useLeafletMap.ts';

export interface CruiseMapProps {
  /** The viewer's own cell centre: the map's centre. */
  me: { lat: number; lng: number };
  radiusKm: number;
  cruisers: readonly NearbyCruiser[];
  spots: readonly Spot[];
  /** A Leaflet tile URL template, or null: a plain background. */
  tileUrl: string | null;
  tileAttribution: string | null;
  onSelectSpot?: (spot: Spot) => void;
}

/** Pins of several cruisers in one 500 m cell become one pin with a number: never stacked, never spread. */
function byCell(cruisers: readonly NearbyCruiser[]) {
  const cells = new Map<string, { lat: number; lng: number; names: string[] }>();
  for (const c of cruisers) {
    if (!c.cell) continue;
    const key = `${c.cell.lat.toFixed(6)}:${c.cell.lng.toFixed(6)}`;
    const entry = cells.get(key) ?? { lat: c.cell.lat, lng: c.cell.lng, names: [] };
    entry.names.push(c.displayName?.trim() || 'Anonymous');
    cells.set(key, entry);
  }
  return [...cells.values()];
}

/** A colour of the design system's palette (index.css @theme), for Leaflet's vector paths. */
function themeColor(name: 'primary' | 'primary-strong' | 'ink', fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(`--color-${name}`).trim();
  return v || fallback;
}

/**
 * The cruise map (Leaflet, loaded only on /cruise). Others appear at their cell centres only;
 * spots as count badges. Tiles come from configuration; with none, or when they fail, the map is
 * a plain background with the markers and the viewer's area (no default icons: under Vite their images 404).
 */
export function CruiseMap({ me, radiusKm, cruisers, spots, tileUrl, tileAttribution, onSelectSpot }: CruiseMapProps) {
  const { el, leaflet, plain } = useLeafletMap(tileUrl, tileAttribution);

  useEffect(() => {
    if (!leaflet) return;
    const { map: m, layer: g } = leaflet;
    g.clearLayers();
    // The view first: Leaflet adds layers to a map only once it has one.
    m.fitBounds(L.latLng(me.lat, me.lng).toBounds(radiusKm * 2000), { padding: [8, 8] });
    L.circle([me.lat, me.lng], {
      radius: radiusKm * 1000,
      color: themeColor('primary-strong', '#d92d45'),
      weight: 1.5,
      dashArray: '6 6',
      fillColor: themeColor('primary', '#ff4458'),
      fillOpacity: 0.05,
      interactive: false,
    }).addTo(g);
    L.marker([me.lat, me.lng], {
      icon: L.divIcon({
        className: '',
        html: '<span class="flex h-6 items-center rounded-full border-2 border-white bg-ink px-2 text-xs font-bold text-white shadow-md">You</span>',
        iconSize: [40, 24],
        iconAnchor: [20, 12],
      }),
      keyboard: false,
      zIndexOffset: 1000,
    })
      .bindTooltip('Your area')
      .addTo(g);
    for (const c of byCell(cruisers)) {
      const n = c.names.length;
      L.marker([c.lat, c.lng], {
        icon: L.divIcon({
          className: '',
          html: `<span class="flex size-8 items-center justify-center rounded-full border-2 border-white bg-primary text-sm font-bold text-white shadow-md">${n > 1 ? n : ''}</span>`,
          iconSize: [32, 32],
          iconAnchor: [16, 16],
        }),
        keyboard: false,
      })
        .bindTooltip(escapeHtml(c.names.join(', ')))
        .addTo(g);
    }
    for (const s of spots) {
      if (s.status !== 'approved') continue;
      const marker = L.marker([s.lat, s.lng], {
        icon: L.divIcon({
          className: '',
          html: `<span class="flex h-7 min-w-7 items-center justify-center rounded-lg border-2 border-white bg-ink px-1.5 text-xs font-bold text-white shadow-md">${s.checkins ?? '·'}</span>`,
          iconSize: [28, 28],
          iconAnchor: [14, 14],
        }),
        title: s.name,
      })
        .bindTooltip(escapeHtml(s.name))
        .addTo(g);
      if (onSelectSpot) marker.on('click', () => onSelectSpot(s));
    }
  }, [leaflet, me.lat, me.lng, radiusKm, cruisers, spots, onSelectSpot]);

  return (
    <div className="relative isolate overflow-hidden rounded-2xl border border-line">
      <section
        ref={el}
        aria-label="Map of cruisers and spots near you"
        className="h-80 w-full"
        style={PLAIN_MAP_BACKGROUND}
      ></section>
      {plain ? (
        <p className="pointer-events-none absolute right-2 bottom-2 z-[400] rounded-full bg-white/90 px-2.5 py-1 text-xs text-muted shadow-sm">
          Street map unavailable: areas shown
        </p>
      ) : null}
    </div>
  );
}
