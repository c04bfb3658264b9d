import type { AdminSpot } from '@fmk/core';
import L from 'leaflet';
import { useEffect } from 'react';
import { escapeHtml, PLAIN_MAP_BACKGROUND, useLeafletMap } from '../../shared/useLeafletMap.ts';

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

/**
 * The locations screens' map (Leaflet, loaded only there, as the cruise map is on /cruise). A
 * spot is a public place, so it is drawn where it is; each marker carries the spot's number in
 * the list beside it. Tiles come from configuration; with none, or when they fail, the markers
 * sit on a plain background.
 */
export function SpotsMap({ spots, tileUrl, tileAttribution, onSelect }: SpotsMapProps) {
  const { el, leaflet, plain } = useLeafletMap(tileUrl, tileAttribution);

  useEffect(() => {
    if (!leaflet) return;
    const { map: m, layer: g } = leaflet;
    if (spots.length === 0) return;
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
  }, [leaflet, spots, onSelect]);

  return (
    <figure className="flex flex-col gap-2">
      <div className="relative isolate overflow-hidden rounded-2xl border border-line">
        <section
          ref={el}
          aria-label="Map of the spots listed"
          className="h-64 w-full sm:h-80"
          style={PLAIN_MAP_BACKGROUND}
        ></section>
        {plain ? (
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
