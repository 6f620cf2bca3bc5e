"""Traditional Chinese characters read as their simplified forms, for the cue patterns.

The detectors' Chinese lexicons are written in simplified characters; transcripts from
Taiwan or Hong Kong (a Legislative Yuan interpellation, a talk show) are written in
traditional ones, where "你不懂" is "你不懂" but "说谎" is "說謊" and "没有" is "沒有".
``simplified`` maps the traditional characters that differ, one character for one, so a
pattern matches either script and offsets stay the same. The table covers the
characters of the detectors' patterns and the common function words around them, not
the whole script (no dictionary is shipped); a character it lacks is left as it is.
"""

from __future__ import annotations

_PAIRS = (
    "醜丑 業业 丟丢 個个 為为 爲为 麼么 麽么 書书 買买 虧亏 從从 們们 價价 會会 偽伪 僞伪 體体"
    " 俠侠 兒儿 黨党 養养 寫写 軍军 決决 憑凭 擊击 劃划 創创 別别 辦办 歷历 曆历 壓压 雙双 發发"
    " 髮发 號号 嗎吗 員员 噴喷 壞坏 處处 夠够 頭头 學学 對对 層层 歲岁 帶带 幫帮 幹干 乾干 並并"
    " 廢废 開开 張张 當当 憂忧 懷怀 護护 報报 擔担 擠挤 據据 撐撑 數数 無无 顯显 術术 槓杠 來来"
    " 標标 樣样 殘残 氣气 漢汉 沒没 測测 塗涂 滿满 點点 煙烟 現现 畫画 癡痴 盤盘 著着 睜睁 離离"
    " 種种 稱称 竅窍 類类 紅红 紙纸 經经 結结 統统 緒绪 維维 恥耻 腦脑 腳脚 臉脸 虛虚 裝装 見见"
    " 觀观 覺觉 計计 認认 討讨 讓让 議议 論论 設设 證证 評评 識识 話话 說说 讀读 調调 談谈 謊谎"
    " 責责 貨货 質质 費费 資资 車车 輪轮 輯辑 辭辞 辯辩 過过 還还 這这 進进 連连 邏逻 裡里 裏里"
    " 鑰钥 錢钱 鍵键 長长 門门 閉闭 問问 間间 聞闻 難难 頑顽 題题 饑饥 飢饥 飽饱 餓饿 驗验 騎骑"
    " 騙骗 黃黄 曉晓 緊紧 選选 較较 講讲 潛潜 動动 愛爱 執执 時时 後后 聽听 應应 該该 實实 際际"
    " 關关 係系 與与 謂谓 麗丽 歡欢 腦脑 罵骂 嘛嘛 糞粪 廢废 瘋疯 嘴嘴 裁裁 惡恶 傷伤 聰聪 謝谢"
    " 誰谁 怎怎 請请 們们 說说 讚赞 贊赞 錯错 樂乐 氣气 嚴严 將将 務务 負负 險险 韓韩 隻只 條条"
    " 親亲 戰战 爭争 勞劳 權权 國国 際际 總总 統统 院院 長长 變变 麥麦 極极 義义 專专 顧顾 產产"
    " 殼壳 亂乱 賴赖 潑泼 裏里 獨独 簡简 絕绝 瞭了"
    " 媽妈 烏乌 龜龟 頁页"
)
_TABLE = str.maketrans(
    {pair[0]: pair[1] for pair in _PAIRS.split() if len(pair) == 2 and pair[0] != pair[1]}
)


def simplified(text: str) -> str:
    """``text`` with the traditional characters of the table in simplified form (same
    length, same offsets)."""
    return text.translate(_TABLE)
