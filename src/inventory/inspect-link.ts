/**
 * The item data a CS2 inspect link carries by itself. Newer links embed the item's preview data
 * block (the protobuf `CEconItemPreviewDataBlock`: paint index, wear as float32 bits, seed,
 * stickers) as hex after `csgo_econ_action_preview`, either plain (a zero byte first and a
 * checksum last) or masked (every byte XORed with the first); older ones carry only the owner,
 * asset and D ids, which say nothing without a game client. Decoded with
 * @csfloat/cs2-inspect-serializer (MIT), which reads both forms; a link without a payload, or
 * whose payload does not decode, gives nothing. No request is made.
 */
import { decodeLink } from '@csfloat/cs2-inspect-serializer';
import type { InventoryItem, InventorySticker } from '../domain/inventory.ts';

export interface InspectData {
  floatValue?: number;
  paintSeed?: number;
  paintIndex?: number;
  stickers: { slot: number; stickerId?: number; wear?: number }[];
}

type Decoded = ReturnType<typeof decodeLink>;

function decode(link: string): Decoded | null {
  if (!/csgo_econ_action_preview(?:%20|\s)+[0-9A-F]+\s*$/i.test(link)) return null;
  try {
    return decodeLink(link);
  } catch {
    return null;
  }
}

const positive = (value: number | undefined) =>
  value !== undefined && Number.isSafeInteger(value) && value > 0 ? value : undefined;

export function inspectData(link: string): InspectData | null {
  const decoded = decode(link);
  if (!decoded) return null;
  const wear = decoded.paintwear;
  const seed = decoded.paintseed;
  return {
    ...(wear !== undefined && wear >= 0 && wear <= 1 ? { floatValue: wear } : {}),
    ...(seed !== undefined && Number.isSafeInteger(seed) ? { paintSeed: seed } : {}),
    ...(positive(decoded.paintindex) === undefined ? {} : { paintIndex: decoded.paintindex }),
    stickers: decoded.stickers
      .filter((sticker) => sticker.slot !== undefined)
      .map((sticker) => ({
        slot: sticker.slot!,
        ...(positive(sticker.stickerId) === undefined ? {} : { stickerId: sticker.stickerId }),
        ...(sticker.wear === undefined ? {} : { wear: sticker.wear }),
      }))
      .sort((a, b) => a.slot - b.slot),
  };
}

/**
 * The description's named stickers with the link's slot, sticker id and wear, when both list
 * the same number (Steam names them in slot order); otherwise the names alone.
 */
export function mergeStickers(
  named: readonly InventorySticker[] | undefined,
  decoded: InspectData['stickers'],
): InventorySticker[] | undefined {
  if (!named || decoded.length !== named.length) return named ? [...named] : undefined;
  return named.map((sticker, index) => ({ ...sticker, ...decoded[index]! }));
}

/** The item with what its inspect link embeds; what the inventory's properties gave stays. */
export function withInspectData(item: InventoryItem): InventoryItem {
  const data = item.inspectLink === undefined ? null : inspectData(item.inspectLink);
  if (!data) return item;
  const stickers = mergeStickers(item.stickers, data.stickers);
  return {
    ...item,
    ...(item.floatValue === undefined && data.floatValue !== undefined
      ? { floatValue: data.floatValue }
      : {}),
    ...(item.paintSeed === undefined && data.paintSeed !== undefined
      ? { paintSeed: data.paintSeed }
      : {}),
    ...(item.paintIndex === undefined && data.paintIndex !== undefined
      ? { paintIndex: data.paintIndex }
      : {}),
    ...(stickers === undefined ? {} : { stickers }),
  };
}

/** Only the paint index a link embeds (plain fetches: it tells Doppler phases apart). */
export function withInspectPaintIndex(item: InventoryItem): InventoryItem {
  if (item.paintIndex !== undefined || item.inspectLink === undefined) return item;
  const paintIndex = inspectData(item.inspectLink)?.paintIndex;
  return paintIndex === undefined ? item : { ...item, paintIndex };
}
