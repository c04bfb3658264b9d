import 'leaflet/dist/leaflet.css';
import type { AdminSpot } from '@fmk/core';
import L from 'leaflet';
import { useEffect, useRef, useState } from 'react';

export interface SpotsMapProps {
  /** The spots of the page shown, numbered in list order. */
  spots: readonly AdminSpot[];
  /** A Leaflet tile URL template, or null: markers on a plain background. */
  tileUrl: string | null;
  tileAttribution: string | null;
  onSelect: (spot: AdminSpot) => void;
}

/** Pending spots in the brand colour, approved in ink, rejected greyed out: the legend below says so. */
const MARKER: Record<AdminSpot['status'], string> = {
  pending: 'bg-primary-strong text-white',
  approved: 'bg-ink text-white',
  rejected: 'bg-white text-muted border-line',
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * The locations screens' map (Leaflet, loaded only there, as the cruise map is on /cruise). A
 * spot is a public place, so it is drawn where it is; each marker carries the spot's number in
 * the list beside it. Tiles come from configuration; with none, or when they fail, the markers
 * sit on a plain background.
 */
export function SpotsMap({ spots, tileUrl, tileAttribution, onSelect }: SpotsMapProps) {
  const el = useRef<HTMLElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const [tilesFailed, setTilesFailed] = useState(false);

  useEffect(() => {
    if (!el.current) return;
    const m = L.map(el.current, { zoomControl: true, attributionControl: Boolean(tileUrl), preferCanvas: true });
    map.current = m;
    layer.current = L.layerGroup().addTo(m);
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
        if (failed >= 4 && loaded === 0) setTilesFailed(true);
      });
      tiles.addTo(m);
    }
    return () => {
      m.remove();
      map.current = null;
      layer.current = null;
    };
  }, [tileUrl, tileAttribution]);

  useEffect(() => {
    const m = map.current;
    const g = layer.current;
    if (!m || !g || spots.length === 0) return;
    g.clearLayers();
    // The view first: Leaflet adds layers to a map only once it has one.
    const bounds = L.latLngBounds(spots.map((s) => [s.lat, s.lng] as [number, number]));
    // Room at the edges, so no marker sits under the zoom buttons or the note.
    if (spots.length === 1) m.setView(bounds.getCenter(), 14);
    else m.fitBounds(bounds, { padding: [40, 40], maxZoom: 15 });
    spots.forEach((s, i) => {
      const marker = L.marker([s.lat, s.lng], {
        icon: L.divIcon({
          className: '',
          html: `<span class="flex h-7 min-w-7 items-center justify-center rounded-full border-2 border-white px-1.5 text-xs font-bold shadow-md ${MARKER[s.status]}">${i + 1}</span>`,
          iconSize: [28, 28],
          iconAnchor: [14, 14],
        }),
        title: `${i + 1}. ${s.name} (${s.status})`,
        alt: `${i + 1}. ${s.name}`,
      })
        .bindTooltip(`${i + 1}. ${escapeHtml(s.name)} · ${s.status}`)
        .addTo(g);
      marker.on('click', () => onSelect(s));
    });
  }, [spots, onSelect]);

  return (
    <figure className="flex flex-col gap-2">
      <div className="relative isolate overflow-hidden rounded-2xl border border-line">
        <section
          ref={el}
          aria-label="Map of the spots listed"
          className="h-64 w-full sm:h-80"
          // Inline, so Leaflet's own grey background does not win: the plain background when no tiles load.
          style={{
            backgroundColor: 'var(--color-canvas)',
            backgroundImage:
              'linear-gradient(var(--color-line) 1px, transparent 1px), linear-gradient(90deg, var(--color-line) 1px, transparent 1px)',
            backgroundSize: '32px 32px',
          }}
        ></section>
        {!tileUrl || tilesFailed ? (
          <p className="pointer-events-none absolute top-2 right-2 z-[400] rounded-full bg-white/90 px-2.5 py-1 text-xs text-muted shadow-sm">
            Street map unavailable: positions only
          </p>
        ) : null}
      </div>
      <figcaption className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
        <Legend className={MARKER.pending}>pending</Legend>
        <Legend className={MARKER.approved}>approved</Legend>
        <Legend className={MARKER.rejected}>rejected</Legend>
        <span>Numbers match the list.</span>
      </figcaption>
    </figure>
  );
}

function Legend({ className, children }: { className: string; children: string }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span aria-hidden="true" className={`inline-block size-3 rounded-full border ${className}`} />
      {children}
    </span>
  );
}
