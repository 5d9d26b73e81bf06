/**
 * A loopback stand-in of Steam's public inventory endpoint and the pages it serves. The pages
 * follow the endpoint's public shape (assets, descriptions with tags / actions / market_actions
 * / descriptions lines, asset_properties, more_items, last_assetid, total_inventory_count,
 * success), as Steam serves it for `GET /inventory/{steamid}/730/2?l=english&count=N`; values
 * are written for these tests, not captured. The sticker line follows Steam's `sticker_info`
 * HTML; asset property ids 1 (Pattern Template), 2 (Wear Rating) and 6 (Item Certificate, which
 * Steam's newer `%propid:6%` inspect links embed) are Steam's.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CatalogItem } from '../domain/item.ts';

export const OWNER = '76561198000000001';
export const PRIVATE_OWNER = '76561198000000002';
export const LIMITED_OWNER = '76561198000000003';
export const HTML_OWNER = '76561198000000004';
export const UNKNOWN_OWNER = '76561198000000005';

const INSPECT =
  'steam://rungame/730/76561202255233023/+csgo_econ_action_preview%20S%owner_steamid%A%assetid%D1234567890';
/** Steam's newer inspect action: the link embeds the asset's property 6 (its item certificate). */
const CERTIFICATE_INSPECT = 'steam://run/730//+csgo_econ_action_preview%20%propid:6%';

/**
 * Asset 104's item certificate: a masked preview data block (itemid 104, defindex 507, paint
 * index 419 = Doppler Phase 2, wear 0.0089 as float32, seed 412, inventory, origin 8), written
 * for these tests with @csfloat/cs2-inspect-serializer's generateHex and XOR-masked with 0xA7.
 */
export const KARAMBIT_CERTIFICATE =
  'A7B7CFBF5CA48704A48FA197A49F69056047A4E73BA4CF24272727ABD7AF7EF61B0F';

function description(classid: string, hashName: string, extra: Record<string, unknown> = {}) {
  return {
    appid: 730,
    classid,
    instanceid: '0',
    icon_url: `icon-${classid}`,
    tradable: 1,
    marketable: 1,
    name: hashName,
    market_name: hashName,
    market_hash_name: hashName,
    type: 'Covert Rifle',
    actions: [{ link: INSPECT, name: 'Inspect in Game...' }],
    market_actions: [{ link: INSPECT, name: 'Inspect in Game...' }],
    tags: [
      { category: 'Type', internal_name: 'CSGO_Type_Rifle', localized_tag_name: 'Rifle' },
      { category: 'Weapon', internal_name: 'weapon_ak47', localized_tag_name: 'AK-47' },
      { category: 'Quality', internal_name: 'normal', localized_tag_name: 'Normal' },
      {
        category: 'Rarity',
        internal_name: 'Rarity_Legendary_Weapon',
        localized_tag_name: 'Classified',
      },
      { category: 'Exterior', internal_name: 'WearCategory2', localized_tag_name: 'Field-Tested' },
    ],
    descriptions: [{ type: 'html', value: 'Exterior: Field-Tested', name: 'exterior_wear' }],
    ...extra,
  };
}

const asset = (assetid: string, classid: string, amount = '1') => ({
  appid: 730,
  contextid: '2',
  assetid,
  classid,
  instanceid: '0',
  amount,
});

const certificate = (assetid: string, hex: string) => ({
  appid: 730,
  contextid: '2',
  assetid,
  asset_properties: [{ propertyid: 6, string_value: hex, name: 'Item Certificate' }],
});

const properties = (assetid: string, seed: number, float: string, paintIndex?: number) => ({
  appid: 730,
  contextid: '2',
  assetid,
  asset_properties: [
    { propertyid: 1, int_value: String(seed), name: 'Pattern Template' },
    { propertyid: 2, float_value: float, name: 'Wear Rating' },
    ...(paintIndex === undefined
      ? []
      : [{ propertyid: 7, int_value: String(paintIndex), name: 'Paint Index' }]),
  ],
});

const STICKERS =
  '<br><div id="sticker_info" name="sticker_info" title="Sticker" style="text-align: center;"><img width=64 height=48 src="a.png"><img width=64 height=48 src="b.png"><br>Sticker: Crown (Foil), Howling Dawn</div>';

export const PAGE_ONE = {
  assets: [asset('101', '1'), asset('102', '1'), asset('103', '2'), asset('104', '3')],
  descriptions: [
    description('1', 'AK-47 | Redline (Field-Tested)', {
      descriptions: [{ type: 'html', value: STICKERS, name: 'sticker_info' }],
    }),
    description('2', 'StatTrak™ AK-47 | Redline (Field-Tested)', {
      tags: [{ category: 'Quality', internal_name: 'strange', localized_tag_name: 'StatTrak™' }],
    }),
    description('3', '★ Karambit | Doppler (Factory New)', {
      tags: [{ category: 'Quality', internal_name: 'unusual', localized_tag_name: '★' }],
      actions: [{ link: CERTIFICATE_INSPECT, name: 'Inspect in Game...' }],
      market_actions: [],
    }),
  ],
  asset_properties: [properties('101', 661, '0.2517'), certificate('104', KARAMBIT_CERTIFICATE)],
  more_items: 1,
  last_assetid: '104',
  total_inventory_count: 7,
  success: 1,
  rwgrsn: -2,
};

export const PAGE_TWO = {
  assets: [asset('105', '4'), asset('106', '5'), asset('107', '6')],
  descriptions: [
    description('4', 'Souvenir AWP | Asiimov (Field-Tested)', {
      tags: [{ category: 'Quality', internal_name: 'tournament', localized_tag_name: 'Souvenir' }],
    }),
    description('5', 'Service Medal 2025', { marketable: 0, tradable: 0, actions: [] }),
    description('6', '★ Karambit | Doppler (Factory New)'),
  ],
  asset_properties: [properties('107', 17, '0.0301', 415)],
  total_inventory_count: 7,
  success: 1,
  rwgrsn: -2,
};

/** Catalog entries the pages resolve to: the Doppler base with two phase variants. */
export function inventoryCatalogItems(): CatalogItem[] {
  const base = '★ Karambit | Doppler (Factory New)';
  const variant = (id: string, name: string, paintIndex: number): CatalogItem => ({
    id,
    game: 'cs2',
    marketHashName: `★ Karambit | Doppler ${name} (Factory New)`,
    slug: id,
    category: 'knife',
    variantOf: 'cs2-karambit-doppler-fn',
    phase: name,
    paintIndex,
  });
  return [
    {
      id: 'cs2-redline-ft',
      game: 'cs2',
      marketHashName: 'AK-47 | Redline (Field-Tested)',
      slug: 'r',
      category: 'skin',
    },
    {
      id: 'cs2-st-redline-ft',
      game: 'cs2',
      marketHashName: 'StatTrak™ AK-47 | Redline (Field-Tested)',
      slug: 'st-r',
      category: 'skin',
      stattrak: true,
    },
    {
      id: 'cs2-karambit-doppler-fn',
      game: 'cs2',
      marketHashName: base,
      slug: 'k',
      category: 'knife',
      variants: [
        {
          marketHashName: `★ Karambit | Doppler Phase 2 (Factory New)`,
          family: 'doppler',
          name: 'Phase 2',
          phase: 2,
          paintIndex: 419,
        },
        {
          marketHashName: `★ Karambit | Doppler Ruby (Factory New)`,
          family: 'doppler',
          name: 'Ruby',
          paintIndex: 415,
        },
      ],
    },
    variant('cs2-karambit-doppler-p2-fn', 'Phase 2', 419),
    variant('cs2-karambit-doppler-ruby-fn', 'Ruby', 415),
  ];
}

export interface StandIn {
  origin: string;
  requests: string[];
  close(): Promise<void>;
}

/** Serves the two pages for OWNER and the failure cases for the other ids. */
export async function startInventoryStandIn(): Promise<StandIn> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    requests.push(url.pathname + url.search);
    const [, , steamId] = url.pathname.split('/');
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    if (steamId === OWNER) {
      json(200, url.searchParams.get('start_assetid') === '104' ? PAGE_TWO : PAGE_ONE);
    } else if (steamId === PRIVATE_OWNER) json(403, null);
    else if (steamId === LIMITED_OWNER) json(429, null, { 'retry-after': '30' });
    else if (steamId === HTML_OWNER) {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!DOCTYPE html><html><body>Sorry! Something went wrong</body></html>');
    } else json(400, null);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
