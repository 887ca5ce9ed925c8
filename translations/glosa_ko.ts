<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko">
<context>
    <name>glosa::AboutDialog</name>
    <message>
        <source>About Glosa</source>
        <translation>Glosa 정보</translation>
    </message>
    <message>
        <source>An offline translator that shows why it chose its words.</source>
        <translation>단어를 고른 이유를 보여 주는 오프라인 번역기입니다.</translation>
    </message>
    <message>
        <source>Data and models</source>
        <translation>데이터와 모델</translation>
    </message>
    <message>
        <source>Translation models are trained on sentence pairs from Tatoeba (CC-BY 2.0 FR), www.manythings.org/anki and tatoeba.org.</source>
        <translation>번역 모델은 Tatoeba(CC-BY 2.0 FR)의 문장 쌍(www.manythings.org/anki, tatoeba.org)으로 학습되었습니다.</translation>
    </message>
    <message>
        <source>The captioner is trained on Flickr8k, for research use only; the images belong to their owners and are not distributed.</source>
        <translation>캡션 모델은 연구 목적으로만 쓸 수 있는 Flickr8k로 학습되었습니다. 이미지는 각 소유자의 것이며 배포하지 않습니다.</translation>
    </message>
    <message>
        <source>Image features come from MobileNetV2 (Apache License 2.0).</source>
        <translation>이미지 특징은 MobileNetV2(Apache License 2.0)로 추출합니다.</translation>
    </message>
    <message>
        <source>Software</source>
        <translation>소프트웨어</translation>
    </message>
    <message>
        <source>Qt 6 (LGPL 3.0)</source>
        <translation>Qt 6 (LGPL 3.0)</translation>
    </message>
    <message>
        <source>oneDNN (Apache License 2.0)</source>
        <translation>oneDNN (Apache License 2.0)</translation>
    </message>
    <message>
        <source>SentencePiece (Apache License 2.0), ICU (Unicode License)</source>
        <translation>SentencePiece (Apache License 2.0), ICU (Unicode License)</translation>
    </message>
    <message>
        <source>SQLite (public domain), nlohmann/json (MIT)</source>
        <translation>SQLite (퍼블릭 도메인), nlohmann/json (MIT)</translation>
    </message>
</context>
<context>
    <name>glosa::AlignmentOverlay</name>
    <message>
        <source>Forced: part of the prefix you chose</source>
        <translation>강제됨: 선택한 접두사의 일부</translation>
    </message>
    <message>
        <source>Probability %1%</source>
        <translation>확률 %1%</translation>
    </message>
    <message>
        <source>Not a known %1 word: the model may have made it up. Click it to see the words it weighed there.</source>
        <translation>알려진 %1 단어가 아닙니다. 모델이 지어낸 단어일 수 있습니다. 클릭하면 모델이 그 자리에서 고려한 단어들을 볼 수 있습니다.</translation>
    </message>
</context>
<context>
    <name>glosa::Architectures</name>
    <message>
        <source>Transformer</source>
        <translation>트랜스포머</translation>
    </message>
    <message>
        <source>RNN with attention</source>
        <translation>어텐션 RNN</translation>
    </message>
    <message>
        <source>Show, Attend and Tell</source>
        <translation>Show, Attend and Tell</translation>
    </message>
</context>
<context>
    <name>glosa::AttentionPanel</name>
    <message>
        <source>Attention heatmap</source>
        <translation>어텐션 히트맵</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>어텐션</translation>
    </message>
    <message>
        <source>Attention layer and head</source>
        <translation>어텐션 레이어와 헤드</translation>
    </message>
    <message>
        <source>Which cross-attention the heatmap and the highlights show</source>
        <translation>히트맵과 강조 표시에 보여 줄 교차 어텐션</translation>
    </message>
    <message>
        <source>Attention kind</source>
        <translation>어텐션 종류</translation>
    </message>
    <message>
        <source>Which of the model&apos;s attentions the heatmap shows</source>
        <translation>히트맵에 보여 줄 모델의 어텐션</translation>
    </message>
    <message>
        <source>All heads</source>
        <translation>모든 헤드</translation>
    </message>
    <message>
        <source>Every head of the layer side by side; click one to see it large</source>
        <translation>레이어의 모든 헤드를 나란히 표시 · 하나를 클릭하면 크게 표시</translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation>어텐션 헤드</translation>
    </message>
    <message>
        <source>Layer %1 · mean of heads</source>
        <translation>레이어 %1 · 헤드 평균</translation>
    </message>
    <message>
        <source>Layer %1 · head %2</source>
        <translation>레이어 %1 · 헤드 %2</translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation>%1 (기본값)</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>교차 어텐션</translation>
    </message>
    <message>
        <source>Encoder self-attention</source>
        <translation>인코더 셀프 어텐션</translation>
    </message>
    <message>
        <source>Decoder self-attention</source>
        <translation>디코더 셀프 어텐션</translation>
    </message>
    <message>
        <source>every head of the layer · click one to see it large</source>
        <translation>레이어의 모든 헤드 · 하나를 클릭하면 크게 표시</translation>
    </message>
    <message>
        <source>rows: translation tokens · columns: source tokens · hover a cell for its weight</source>
        <translation>행: 번역 토큰 · 열: 원문 토큰 · 셀 위에 마우스를 올리면 가중치 표시</translation>
    </message>
    <message>
        <source>rows and columns: source tokens · each row: what the encoder read for that token</source>
        <translation>행과 열: 원문 토큰 · 각 행: 인코더가 그 토큰을 위해 읽은 것</translation>
    </message>
    <message>
        <source>rows: translation tokens · columns: what the decoder had read (the start, then the translation so far; the rest is masked)</source>
        <translation>행: 번역 토큰 · 열: 디코더가 읽은 것 (시작 토큰과 그때까지의 번역, 나머지는 마스킹됨)</translation>
    </message>
    <message>
        <source>This model has no attention, so there is no alignment to show: its decoder sees only a fixed summary of the source, the bottleneck that attention removes.</source>
        <translation>이 모델에는 어텐션이 없어서 보여 줄 정렬이 없습니다. 디코더는 원문의 고정된 요약만 봅니다. 어텐션이 없애는 바로 그 병목입니다.</translation>
    </message>
</context>
<context>
    <name>glosa::BeamTreeWidget</name>
    <message>
        <source>Compare to see the search tree of the selected column.</source>
        <translation>비교를 실행하면 선택한 열의 탐색 트리가 표시됩니다.</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>유지됨</translation>
    </message>
    <message>
        <source>pruned</source>
        <translation>가지치기됨</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>완료됨</translation>
    </message>
    <message>
        <source>blocked by n-gram</source>
        <translation>n-그램으로 차단됨</translation>
    </message>
    <message>
        <source>“%1” (step %2): %3
log p %4 · cumulative %5 · score %6</source>
        <translation>“%1” (%2단계): %3
log p %4 · 누적 %5 · 점수 %6</translation>
    </message>
    <message>
        <source>Decode from here</source>
        <translation>여기서부터 디코딩</translation>
    </message>
    <message>
        <source>Double-click to decode again with the words up to here forced</source>
        <translation>두 번 클릭하면 여기까지의 단어를 강제하여 다시 디코딩합니다</translation>
    </message>
    <message>
        <source>Click to decode again with the words up to here forced: a new column shows where this path leads</source>
        <translation>클릭하면 여기까지의 단어를 강제하여 다시 디코딩합니다: 이 경로가 어디로 이어지는지 새 열에 표시됩니다</translation>
    </message>
</context>
<context>
    <name>glosa::CandidatesPanel</name>
    <message>
        <source>Candidates</source>
        <translation>후보</translation>
    </message>
    <message>
        <source>Candidates at the selected word</source>
        <translation>선택한 단어의 후보</translation>
    </message>
    <message>
        <source>Click a word of the translation to see the candidates the model weighed there; click one of them to translate again with it.</source>
        <translation>번역의 단어를 클릭하면 모델이 그 자리에서 고려한 후보가 표시됩니다. 후보 하나를 클릭하면 그 단어로 다시 번역합니다.</translation>
    </message>
</context>
<context>
    <name>glosa::CaptionView</name>
    <message>
        <source>Images</source>
        <translation>이미지</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>열기…</translation>
    </message>
    <message>
        <source>Open one or more images (Ctrl+O)</source>
        <translation>이미지를 하나 이상 엽니다 (Ctrl+O)</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>붙여넣기</translation>
    </message>
    <message>
        <source>Paste an image from the clipboard</source>
        <translation>클립보드에서 이미지를 붙여넣습니다</translation>
    </message>
    <message>
        <source>Image with attention overlay</source>
        <translation>어텐션을 겹쳐 표시한 이미지</translation>
    </message>
    <message>
        <source>Drop images here, paste one, or open them from disk.</source>
        <translation>이미지를 여기에 끌어다 놓거나, 붙여넣거나, 디스크에서 여십시오.</translation>
    </message>
    <message>
        <source>Caption</source>
        <translation>캡션</translation>
    </message>
    <message>
        <source>&amp;Word:</source>
        <translation>단어(&amp;W):</translation>
    </message>
    <message>
        <source>Word of the caption</source>
        <translation>캡션의 단어</translation>
    </message>
    <message>
        <source>&amp;Blend:</source>
        <translation>혼합(&amp;B):</translation>
    </message>
    <message>
        <source>Heatmap blend</source>
        <translation>히트맵 혼합</translation>
    </message>
    <message>
        <source>Translate caption</source>
        <translation>캡션 번역</translation>
    </message>
    <message>
        <source>Translate the caption with the selected translation model</source>
        <translation>선택한 번역 모델로 캡션을 번역합니다</translation>
    </message>
    <message>
        <source>Decoding</source>
        <translation>디코딩</translation>
    </message>
    <message>
        <source>Captioning failed: %1</source>
        <translation>캡션 생성 실패: %1</translation>
    </message>
    <message>
        <source>Open images</source>
        <translation>이미지 열기</translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.webp *.bmp *.gif)</source>
        <translation>이미지 (*.png *.jpg *.jpeg *.webp *.bmp *.gif)</translation>
    </message>
    <message>
        <source>The clipboard holds no image.</source>
        <translation>클립보드에 이미지가 없습니다.</translation>
    </message>
    <message>
        <source>Captioning…</source>
        <translation>캡션 생성 중…</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Translating…</source>
        <translation>번역 중…</translation>
    </message>
    <message>
        <source>The selected translation model does not translate from %1: choose one that does to translate captions</source>
        <translation>선택한 번역 모델은 %1 원문을 번역하지 않습니다. 캡션을 번역하려면 이를 지원하는 모델을 선택하십시오</translation>
    </message>
    <message>
        <source>Caption</source>
        <comment>button: caption the chosen images</comment>
        <translation>캡션 생성</translation>
    </message>
    <message>
        <source>Captioner: %1</source>
        <translation>캡션 모델: %1</translation>
    </message>
</context>
<context>
    <name>glosa::CompareColumn</name>
    <message>
        <source>Custom</source>
        <translation>사용자 정의</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>편집…</translation>
    </message>
    <message>
        <source>Edit every decoding setting of this column</source>
        <translation>이 열의 모든 디코딩 설정을 편집합니다</translation>
    </message>
    <message>
        <source>Strategy of column %1</source>
        <translation>%1열의 전략</translation>
    </message>
    <message>
        <source>Output of column %1</source>
        <translation>%1열의 출력</translation>
    </message>
    <message>
        <source>Column %1 decoding</source>
        <translation>%1열 디코딩</translation>
    </message>
    <message>
        <source>Decoding…</source>
        <translation>디코딩 중…</translation>
    </message>
    <message numerus="yes">
        <source>score %1 · %n token(s) · %2 ms</source>
        <translation>
            <numerusform>점수 %1 · 토큰 %n개 · %2 ms</numerusform>
        </translation>
    </message>
    <message>
        <source>Probability %1%</source>
        <translation>확률 %1%</translation>
    </message>
    <message>
        <source>Out of date: the settings changed after this result</source>
        <translation>오래된 결과: 이 결과 이후 설정이 바뀌었습니다</translation>
    </message>
    <message numerus="yes">
        <source>Probabilities and differences are shown for the first %n token(s).</source>
        <translation>
            <numerusform>확률과 차이는 처음 %n개 토큰에만 표시됩니다.</numerusform>
        </translation>
    </message>
    <message>
        <source>Forced: part of the prefix you chose</source>
        <translation>강제됨: 선택한 접두사의 일부</translation>
    </message>
    <message>
        <source>Same output as column %1: these settings changed nothing on this text.</source>
        <translation>%1열과 같은 출력: 이 설정은 이 텍스트에서 아무것도 바꾸지 않았습니다.</translation>
    </message>
    <message>
        <source>Parts from column %1 at “%2” (%3%).</source>
        <translation>“%2”(%3%)에서 %1열과 갈라집니다.</translation>
    </message>
    <message>
        <source>Parts from column %1 at “%2” (%3%), where it has “%4” (%5%).</source>
        <translation>“%2”(%3%)에서 %1열과 갈라집니다. 그 열은 여기서 “%4”(%5%)입니다.</translation>
    </message>
</context>
<context>
    <name>glosa::CompareView</name>
    <message>
        <source>Sentence to compare</source>
        <translation>비교할 문장</translation>
    </message>
    <message>
        <source>Type a sentence and compare how each strategy translates it…</source>
        <translation>문장을 입력하고 전략마다 어떻게 번역하는지 비교해 보십시오…</translation>
    </message>
    <message>
        <source>&amp;Columns:</source>
        <translation>열(&amp;C):</translation>
    </message>
    <message>
        <source>Number of columns</source>
        <translation>열 수</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>비교(&amp;C)</translation>
    </message>
    <message>
        <source>Decode the sentence with every column&apos;s strategy (Ctrl+Shift+C)</source>
        <translation>각 열의 전략으로 문장을 디코딩합니다 (Ctrl+Shift+C)</translation>
    </message>
    <message>
        <source>&amp;Re-sample</source>
        <translation>다시 샘플링(&amp;R)</translation>
    </message>
    <message>
        <source>Draw new seeds for the sampling columns and compare again</source>
        <translation>샘플링 열에 새 시드를 뽑아 다시 비교합니다</translation>
    </message>
    <message>
        <source>Search tree</source>
        <translation>탐색 트리</translation>
    </message>
    <message>
        <source>Candidates at the selected step</source>
        <translation>선택한 단계의 후보</translation>
    </message>
    <message>
        <source>Probability chart</source>
        <translation>확률 차트</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>유지됨</translation>
    </message>
    <message>
        <source>pruned</source>
        <translation>가지치기됨</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>완료됨</translation>
    </message>
    <message>
        <source>blocked</source>
        <translation>차단됨</translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>완료되었습니다.</translation>
    </message>
    <message>
        <source>Comparison failed: %1</source>
        <translation>비교 실패: %1</translation>
    </message>
    <message numerus="yes">
        <source>Decoding %n column(s)…</source>
        <translation>
            <numerusform>열 %n개 디코딩 중…</numerusform>
        </translation>
    </message>
    <message>
        <source>Decoding column %1 with its new settings…</source>
        <translation>열 %1을(를) 새 설정으로 디코딩하는 중…</translation>
    </message>
    <message>
        <source>The comparison is still running: decode from here once it is done.</source>
        <translation>비교가 아직 진행 중입니다: 끝난 뒤에 여기서부터 디코딩하세요.</translation>
    </message>
    <message>
        <source>All %1 columns are in use: lower the number of columns to make room for a decode from here.</source>
        <translation>%1개의 열을 모두 사용 중입니다: 여기서부터 디코딩하려면 열 수를 줄이세요.</translation>
    </message>
    <message>
        <source>Decoding column %1 from the chosen prefix…</source>
        <translation>선택한 접두사로 %1번 열 디코딩 중…</translation>
    </message>
    <message>
        <source>This text looks like %1, and the model translates from %2.</source>
        <translation>이 텍스트는 %1로 보이지만, 이 모델은 %2에서 번역합니다.</translation>
    </message>
    <message>
        <source>Compare %1 → %2</source>
        <translation>%1 → %2로 비교</translation>
    </message>
    <message>
        <source>Compare anyway</source>
        <translation>그래도 비교</translation>
    </message>
    <message>
        <source>Not compared: the text is not in %1.</source>
        <translation>비교하지 않음: 텍스트가 %1가 아닙니다.</translation>
    </message>
</context>
<context>
    <name>glosa::Coverage</name>
    <message>
        <source>Possibly left out of the translation: this word received an attention mass of %1 over the whole translation of its sentence, below the threshold of %2. Each word of a translation hands out an attention mass of 1 over the source, so a word it translated usually gets about 1.</source>
        <translation>번역에서 빠졌을 수 있습니다: 이 단어는 문장 전체 번역에서 어텐션 질량 %1을(를) 받았으며, 이는 임계값 %2보다 낮습니다. 번역의 각 단어는 원문에 어텐션 질량 1을 나누어 주므로, 번역된 단어는 보통 약 1을 받습니다.</translation>
    </message>
</context>
<context>
    <name>glosa::DecodingPanel</name>
    <message>
        <source>Greedy</source>
        <translation>탐욕적</translation>
    </message>
    <message>
        <source>Beam 5</source>
        <translation>빔 5</translation>
    </message>
    <message>
        <source>Beam 5 + no-repeat 3-gram</source>
        <translation>빔 5 + 3-그램 반복 금지</translation>
    </message>
    <message>
        <source>Top-k 40, T 0.8</source>
        <translation>Top-k 40, T 0.8</translation>
    </message>
    <message>
        <source>Top-p 0.9</source>
        <translation>Top-p 0.9</translation>
    </message>
    <message>
        <source>&amp;Preset:</source>
        <translation>사전 설정(&amp;P):</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>저장…</translation>
    </message>
    <message>
        <source>Save these settings as a preset</source>
        <translation>이 설정을 사전 설정으로 저장합니다</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>삭제</translation>
    </message>
    <message>
        <source>Delete the selected preset</source>
        <translation>선택한 사전 설정을 삭제합니다</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>탐색</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>샘플링</translation>
    </message>
    <message>
        <source>Beam search</source>
        <translation>빔 탐색</translation>
    </message>
    <message>
        <source>None</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>GNMT (Wu et al. 2016)</source>
        <translation>GNMT (Wu et al. 2016)</translation>
    </message>
    <message>
        <source>Average log-probability</source>
        <translation>평균 로그 확률</translation>
    </message>
    <message>
        <source>Heuristic</source>
        <translation>휴리스틱</translation>
    </message>
    <message>
        <source>Bounded (exact)</source>
        <translation>상한 기반 (정확)</translation>
    </message>
    <message>
        <source>Eager</source>
        <translation>즉시</translation>
    </message>
    <message>
        <source>New</source>
        <translation>새 시드</translation>
    </message>
    <message>
        <source>Draw a new random seed</source>
        <translation>새 무작위 시드를 뽑습니다</translation>
    </message>
    <message>
        <source>&amp;Strategy:</source>
        <translation>전략(&amp;S):</translation>
    </message>
    <message>
        <source>&amp;Beam size:</source>
        <translation>빔 크기(&amp;B):</translation>
    </message>
    <message>
        <source>&amp;N-best:</source>
        <translation>상위 N개(&amp;N):</translation>
    </message>
    <message>
        <source>Length &amp;normalisation:</source>
        <translation>길이 정규화(&amp;N):</translation>
    </message>
    <message>
        <source>Length penalty &amp;α:</source>
        <translation>길이 페널티 &amp;α:</translation>
    </message>
    <message>
        <source>&amp;Coverage penalty β:</source>
        <translation>커버리지 페널티 β(&amp;C):</translation>
    </message>
    <message>
        <source>&amp;Early stopping:</source>
        <translation>조기 종료(&amp;E):</translation>
    </message>
    <message>
        <source>&amp;Maximum length:</source>
        <translation>최대 길이(&amp;M):</translation>
    </message>
    <message>
        <source>Maximum length &amp;ratio:</source>
        <translation>최대 길이 비율(&amp;R):</translation>
    </message>
    <message>
        <source>M&amp;inimum length:</source>
        <translation>최소 길이(&amp;I):</translation>
    </message>
    <message>
        <source>No-repeat &amp;n-gram:</source>
        <translation>반복 금지 n-그램(&amp;N):</translation>
    </message>
    <message>
        <source>Re&amp;petition penalty:</source>
        <translation>반복 페널티(&amp;P):</translation>
    </message>
    <message>
        <source>Soft n-gram penalty &amp;λ:</source>
        <translation>소프트 n-그램 페널티 &amp;λ:</translation>
    </message>
    <message>
        <source>Soft n-gram si&amp;ze:</source>
        <translation>소프트 n-그램 크기(&amp;Z):</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>온도(&amp;T):</translation>
    </message>
    <message>
        <source>Top-&amp;k:</source>
        <translation>Top-&amp;k:</translation>
    </message>
    <message>
        <source>Top-p (n&amp;ucleus):</source>
        <translation>Top-p (뉴클리어스)(&amp;U):</translation>
    </message>
    <message>
        <source>Min-p (re&amp;lative):</source>
        <translation>Min-p (상대값)(&amp;L):</translation>
    </message>
    <message>
        <source>S&amp;eed:</source>
        <translation>시드(&amp;E):</translation>
    </message>
    <message>
        <source>Decoding preset</source>
        <translation>디코딩 사전 설정</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>사용자 정의</translation>
    </message>
    <message>
        <source>Save preset</source>
        <translation>사전 설정 저장</translation>
    </message>
    <message>
        <source>Preset name:</source>
        <translation>사전 설정 이름:</translation>
    </message>
    <message>
        <source>Model&apos;s defaults</source>
        <translation>모델 기본값</translation>
    </message>
    <message>
        <source>Length^α</source>
        <translation>길이^α</translation>
    </message>
    <message>
        <source>Whole beam</source>
        <translation>빔 전체</translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation>고급</translation>
    </message>
    <message>
        <source>Length normalisation, penalties against repetition and length limits</source>
        <translation>길이 정규화, 반복 방지 페널티와 길이 제한</translation>
    </message>
    <message>
        <source>How each next word is picked: the most probable one (greedy), the best of several partial translations kept side by side (beam), or at random by probability (sample).</source>
        <translation>다음 단어를 고르는 방법: 가장 확률이 높은 단어(탐욕), 나란히 유지한 여러 부분 번역 중 가장 좋은 것(빔), 또는 확률에 따른 무작위 선택(샘플링).</translation>
    </message>
    <message>
        <source>How many partial translations beam search keeps at each step: more often finds a better-scoring translation, more slowly (1: the same as greedy).</source>
        <translation>빔 탐색이 단계마다 유지하는 부분 번역의 수: 클수록 점수가 더 높은 번역을 자주 찾지만 느려집니다(1: 탐욕 탐색과 같음).</translation>
    </message>
    <message>
        <source>How many alternative translations of each sentence are returned, best first (beam search and sampling).</source>
        <translation>문장마다 돌려주는 대안 번역의 수, 가장 좋은 것부터(빔 탐색과 샘플링).</translation>
    </message>
    <message>
        <source>How finished translations of different lengths are ranked: by their whole probability (none), which favours short ones, or by probability per token (gnmt, average, power).</source>
        <translation>길이가 다른 완성 번역의 순위를 매기는 방법: 전체 확률(없음, 짧은 번역이 유리) 또는 토큰당 확률(gnmt, average, power).</translation>
    </message>
    <message>
        <source>Length penalty α of the gnmt and power normalisations: higher favours longer translations (0: off).</source>
        <translation>gnmt 및 power 정규화의 길이 페널티 α: 클수록 긴 번역이 유리합니다(0: 끔).</translation>
    </message>
    <message>
        <source>GNMT coverage penalty β: lowers translations that leave source words unattended, so that fewer words are dropped (0: off).</source>
        <translation>GNMT 커버리지 페널티 β: 원문 단어를 주의하지 않고 남긴 번역의 점수를 낮춰 빠지는 단어를 줄입니다(0: 끔).</translation>
    </message>
    <message>
        <source>When beam search stops: once the best running translation looks unable to win (heuristic), once it cannot win (bounded), at the first finished ones (eager) or once a whole beam has finished (beam).</source>
        <translation>빔 탐색이 멈추는 시점: 진행 중인 최선의 번역이 이길 수 없어 보일 때(휴리스틱), 이길 수 없을 때(한정), 처음 완성된 번역에서(즉시), 또는 빔 전체가 완성되었을 때(전체 빔).</translation>
    </message>
    <message>
        <source>Most tokens generated for one sentence: a longer translation is cut off.</source>
        <translation>한 문장에 생성하는 최대 토큰 수: 더 긴 번역은 잘립니다.</translation>
    </message>
    <message>
        <source>Also cuts a translation off at this many times the source&apos;s tokens, which ends runaway repetition early (0: off).</source>
        <translation>원문 토큰 수의 이 배수에서도 번역을 잘라, 끝없는 반복을 일찍 멈춥니다(0: 끔).</translation>
    </message>
    <message>
        <source>A translation cannot end before this many tokens (0: off).</source>
        <translation>번역은 이 토큰 수 전에는 끝날 수 없습니다(0: 끔).</translation>
    </message>
    <message>
        <source>No run of this many tokens may occur twice in a translation, which stops loops such as &quot;the the the&quot; (0: off).</source>
        <translation>이 길이의 토큰 연속이 번역에 두 번 나올 수 없어, &quot;the the the&quot; 같은 반복을 막습니다(0: 끔).</translation>
    </message>
    <message>
        <source>CTRL repetition penalty: above 1 makes tokens already in the translation less likely, below 1 more likely (1: off).</source>
        <translation>CTRL 반복 페널티: 1보다 크면 번역에 이미 있는 토큰의 확률을 낮추고, 1보다 작으면 높입니다(1: 끔).</translation>
    </message>
    <message>
        <source>Soft n-gram penalty λ: subtracted from a token&apos;s score for each earlier occurrence of the n-gram it completes, discouraging repetition without forbidding it (0: off).</source>
        <translation>부드러운 n-그램 페널티 λ: 토큰이 완성하는 n-그램이 앞서 나온 횟수마다 점수에서 빼서, 반복을 금지하지 않고 줄입니다(0: 끔).</translation>
    </message>
    <message>
        <source>Length of the n-grams the soft n-gram penalty counts (1: repeated tokens).</source>
        <translation>부드러운 n-그램 페널티가 세는 n-그램의 길이(1: 반복된 토큰).</translation>
    </message>
    <message>
        <source>Sampling temperature: below 1 picks the likely words more often, above 1 gives rarer words more chance (1: off).</source>
        <translation>샘플링 온도: 1보다 작으면 확률 높은 단어를 더 자주 고르고, 1보다 크면 드문 단어에 더 많은 기회를 줍니다(1: 끔).</translation>
    </message>
    <message>
        <source>Samples only among the k most probable tokens of each step, which keeps unlikely words out (0: off).</source>
        <translation>단계마다 가장 확률이 높은 k개 토큰 중에서만 샘플링해, 가능성 낮은 단어를 배제합니다(0: 끔).</translation>
    </message>
    <message>
        <source>Nucleus sampling: samples only among the most probable tokens that together reach this probability (1: off).</source>
        <translation>뉴클리어스 샘플링: 합쳐서 이 확률에 이르는 가장 확률 높은 토큰들 중에서만 샘플링합니다(1: 끔).</translation>
    </message>
    <message>
        <source>Samples only among the tokens at least this fraction as probable as the best one (0: off).</source>
        <translation>가장 좋은 토큰 확률의 이 비율 이상인 토큰들 중에서만 샘플링합니다(0: 끔).</translation>
    </message>
    <message>
        <source>Seed of the random sampling: the same seed and settings give the same translation.</source>
        <translation>무작위 샘플링의 시드: 같은 시드와 설정은 같은 번역을 냅니다.</translation>
    </message>
</context>
<context>
    <name>glosa::DecodingSummary</name>
    <message>
        <source>greedy</source>
        <translation>탐욕</translation>
    </message>
    <message>
        <source>beam %1</source>
        <translation>빔 %1</translation>
    </message>
    <message>
        <source>sample</source>
        <translation>샘플링</translation>
    </message>
    <message>
        <source>no-repeat %1</source>
        <translation>반복 금지 %1</translation>
    </message>
    <message>
        <source>rep %1</source>
        <translation>반복 페널티 %1</translation>
    </message>
</context>
<context>
    <name>glosa::DocumentsView</name>
    <message>
        <source>The history was not updated: %1</source>
        <translation>기록을 업데이트하지 못했습니다: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <translation>
            <numerusform>%n초</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1분 %2초</translation>
    </message>
    <message>
        <source>OpenDocument text</source>
        <translation>OpenDocument 텍스트</translation>
    </message>
    <message>
        <source>PDF document</source>
        <translation>PDF 문서</translation>
    </message>
    <message>
        <source>Word document</source>
        <translation>Word 문서</translation>
    </message>
    <message>
        <source>Web page</source>
        <translation>웹 페이지</translation>
    </message>
    <message>
        <source>Markdown</source>
        <translation>Markdown</translation>
    </message>
    <message>
        <source>Subtitles</source>
        <translation>자막</translation>
    </message>
    <message>
        <source>Plain text</source>
        <translation>일반 텍스트</translation>
    </message>
    <message>
        <source>The document is translated.</source>
        <translation>문서 번역을 마쳤습니다.</translation>
    </message>
    <message>
        <source>Stopped: %1 of %2 sentences are translated; Export keeps the rest in the source language.</source>
        <translation>중지됨: 문장 %2개 중 %1개를 번역했습니다. 내보내면 나머지는 원문 언어로 남습니다.</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1을(를) 저장했습니다</translation>
    </message>
    <message>
        <source>Translation (%1)</source>
        <translation>번역 (%1)</translation>
    </message>
    <message>
        <source>Open document</source>
        <translation>문서 열기</translation>
    </message>
    <message>
        <source>Documents (%1);;All files (*)</source>
        <translation>문서 (%1);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 읽는 중…</translation>
    </message>
    <message numerus="yes">
        <source>%n paragraph(s) to translate.</source>
        <translation>
            <numerusform>번역할 문단이 %n개 있습니다.</numerusform>
        </translation>
    </message>
    <message>
        <source>Loading the model…</source>
        <translation>모델을 불러오는 중…</translation>
    </message>
    <message>
        <source>%1 / %2 sentences</source>
        <translation>문장 %1 / %2</translation>
    </message>
    <message>
        <source>, about %1 left</source>
        <translation>, 약 %1 남음</translation>
    </message>
    <message>
        <source>, estimating the time left…</source>
        <translation>, 남은 시간 계산 중…</translation>
    </message>
    <message>
        <source>Export translation</source>
        <translation>번역 내보내기</translation>
    </message>
    <message>
        <source>&amp;Continue</source>
        <translation>계속(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Translate</source>
        <translation>번역(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>열기(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a document (%1), or drop one here</source>
        <translation>문서(%1)를 열거나 여기에 끌어다 놓으십시오</translation>
    </message>
    <message>
        <source>Open or drop a document</source>
        <translation>문서를 열거나 끌어다 놓으십시오</translation>
    </message>
    <message>
        <source>&amp;Quality:</source>
        <translation>품질(&amp;Q):</translation>
    </message>
    <message>
        <source>Fast (greedy)</source>
        <translation>빠름 (탐욕적)</translation>
    </message>
    <message>
        <source>Best (beam search)</source>
        <translation>최상 (빔 탐색)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Stop; the finished part is kept</source>
        <translation>중지합니다. 완료된 부분은 유지됩니다</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>내보내기(&amp;E)…</translation>
    </message>
    <message>
        <source>Save the translation as a document</source>
        <translation>번역을 문서로 저장합니다</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>원문</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>번역</translation>
    </message>
    <message>
        <source>Translation progress</source>
        <translation>번역 진행률</translation>
    </message>
    <message>
        <source>Source document</source>
        <translation>원본 문서</translation>
    </message>
    <message>
        <source>Translated document</source>
        <translation>번역된 문서</translation>
    </message>
    <message>
        <source>Translation (%1), made with other settings: Translate to update it</source>
        <translation>번역 (%1), 다른 설정으로 만들어짐: 번역을 눌러 업데이트하세요</translation>
    </message>
    <message numerus="yes">
        <source>%n paragraph(s) edited; Export writes your version.</source>
        <translation>
            <numerusform>단락 %n개를 수정했습니다. 내보내기는 내 버전을 씁니다.</numerusform>
        </translation>
    </message>
    <message>
        <source>Discard your edits?</source>
        <translation>수정한 내용을 버릴까요?</translation>
    </message>
    <message numerus="yes">
        <source>Opening another document discards the %n paragraph(s) you edited. Export first to keep them.</source>
        <translation>
            <numerusform>다른 문서를 열면 수정한 단락 %n개가 사라집니다. 유지하려면 먼저 내보내세요.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Translating the document again replaces the %n paragraph(s) you edited.</source>
        <translation>
            <numerusform>문서를 다시 번역하면 수정한 단락 %n개가 바뀝니다.</numerusform>
        </translation>
    </message>
    <message>
        <source>Stopped reading %1; no document is open.</source>
        <translation>%1 읽기를 중지했습니다. 열린 문서가 없습니다.</translation>
    </message>
    <message>
        <source>The model&apos;s own (%1)</source>
        <translation>모델 기본 설정 (%1)</translation>
    </message>
    <message>
        <source>Saved %1 in %2 (the document was read as %3)</source>
        <translation>%1을(를) %2(으)로 저장했습니다 (문서는 %3(으)로 읽었습니다)</translation>
    </message>
    <message>
        <source>The file is in %1, not UTF-8; Export writes UTF-8.</source>
        <translation>파일이 UTF-8이 아닌 %1입니다. 내보내기는 UTF-8로 씁니다.</translation>
    </message>
    <message>
        <source>Not translated: the document is not in %1.</source>
        <translation>번역하지 않음: 문서가 %1가 아닙니다.</translation>
    </message>
    <message>
        <source>This document looks like %1, and the model translates from %2.</source>
        <translation>이 문서는 %1로 보이지만, 이 모델은 %2에서 번역합니다.</translation>
    </message>
    <message>
        <source>Translate %1 → %2</source>
        <translation>%1 → %2로 번역</translation>
    </message>
    <message>
        <source>Translate anyway</source>
        <translation>그래도 번역</translation>
    </message>
</context>
<context>
    <name>glosa::EvaluateDialog</name>
    <message>
        <source>Evaluate models</source>
        <translation>모델 평가</translation>
    </message>
    <message>
        <source>A TSV file (source, tab, reference)…</source>
        <translation>TSV 파일 (원문, 탭, 참조 번역)…</translation>
    </message>
    <message>
        <source>Two aligned files (sources, references)…</source>
        <translation>정렬된 두 파일 (원문, 참조 번역)…</translation>
    </message>
    <message>
        <source>Greedy search (faster; otherwise each model&apos;s own settings)</source>
        <translation>탐욕 탐색 (더 빠름; 끄면 각 모델 자체 설정)</translation>
    </message>
    <message>
        <source>&amp;Evaluate</source>
        <translation>평가(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>취소(&amp;C)</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>BLEU</source>
        <translation>BLEU</translation>
    </message>
    <message>
        <source>chrF2</source>
        <translation>chrF2</translation>
    </message>
    <message>
        <source>Brevity penalty</source>
        <translation>짧은 번역 패널티</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>시간</translation>
    </message>
    <message>
        <source>Sentences where the first two models differ most (sentence chrF2). Double-click one to open it in Compare.</source>
        <translation>처음 두 모델의 차이가 가장 큰 문장 (문장 chrF2). 두 번 클릭하면 비교에서 열립니다.</translation>
    </message>
    <message>
        <source>&amp;Direction:</source>
        <translation>방향(&amp;D):</translation>
    </message>
    <message>
        <source>&amp;Models:</source>
        <translation>모델(&amp;M):</translation>
    </message>
    <message>
        <source>&amp;Test set:</source>
        <translation>테스트 세트(&amp;T):</translation>
    </message>
    <message>
        <source>BLEU by source-sentence length (words)</source>
        <translation>원문 문장 길이별 BLEU (단어)</translation>
    </message>
    <message>
        <source>%1 with references %2</source>
        <translation>%1, 참조 번역 %2</translation>
    </message>
    <message>
        <source>Test set (TSV)</source>
        <translation>테스트 세트 (TSV)</translation>
    </message>
    <message>
        <source>Source sentences</source>
        <translation>원문 문장</translation>
    </message>
    <message>
        <source>Reference translations</source>
        <translation>참조 번역</translation>
    </message>
    <message>
        <source>Choose at least one model.</source>
        <translation>모델을 하나 이상 선택하세요.</translation>
    </message>
    <message numerus="yes">
        <source>Evaluating %n model(s) on %1…</source>
        <translation>
            <numerusform>%1에서 모델 %n개 평가 중…</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2 of %3 sentences</source>
        <translation>%1: 문장 %3개 중 %2개</translation>
    </message>
    <message>
        <source>Cancelled: no scores, since a score of part of the set would not compare with others.</source>
        <translation>취소됨: 세트 일부의 점수는 다른 점수와 비교할 수 없으므로 점수가 없습니다.</translation>
    </message>
    <message>
        <source>%1: %2 sentences. BLEU and chrF2 as sacrebleu computes them.</source>
        <translation>%1: 문장 %2개. BLEU와 chrF2는 sacrebleu 방식으로 계산합니다.</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1초</translation>
    </message>
    <message>
        <source>Choose two models to see where they differ.</source>
        <translation>두 모델을 선택하면 차이를 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Δ chrF2</source>
        <translation>Δ chrF2</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>원문</translation>
    </message>
    <message>
        <source>Reference: %1</source>
        <translation>참조 번역: %1</translation>
    </message>
    <message>
        <source>%1: %2 sentences. %3</source>
        <translation>%1: %2개 문장. %3</translation>
    </message>
    <message>
        <source>Bundled sample (520 Tatoeba pairs: each sentence once, scored against all its translations)</source>
        <translation>내장 샘플 (Tatoeba 520쌍: 문장마다 한 번씩, 모든 번역과 비교해 채점)</translation>
    </message>
    <message>
        <source>Not evaluated: the test set&apos;s sentences look like %1, and the models translate from %2. Choose a test set in %2.</source>
        <translation>평가하지 않음: 테스트 세트의 문장이 %1로 보이지만, 모델은 %2에서 번역합니다. %2로 된 테스트 세트를 고르세요.</translation>
    </message>
</context>
<context>
    <name>glosa::EvaluationWorker</name>
    <message>
        <source>Could not load %1: %2</source>
        <translation>%1을(를) 불러올 수 없습니다: %2</translation>
    </message>
    <message>
        <source>not a translation model</source>
        <translation>번역 모델이 아닙니다</translation>
    </message>
    <message>
        <source>Out of memory while evaluating %1</source>
        <translation>%1 평가 중 메모리가 부족합니다</translation>
    </message>
    <message>
        <source>Evaluating %1 failed: %2</source>
        <translation>%1 평가 실패: %2</translation>
    </message>
</context>
<context>
    <name>glosa::GetModelsDialog</name>
    <message>
        <source>Get models</source>
        <translation>모델 받기</translation>
    </message>
    <message>
        <source>Languages such as en-fr, or a repository such as Helsinki-NLP/opus-mt-en-fr</source>
        <translation>en-fr 같은 언어 쌍, 또는 Helsinki-NLP/opus-mt-en-fr 같은 저장소</translation>
    </message>
    <message>
        <source>Search models</source>
        <translation>모델 검색</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>검색</translation>
    </message>
    <message>
        <source>Languages</source>
        <translation>언어</translation>
    </message>
    <message>
        <source>Repository</source>
        <translation>저장소</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>크기</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>라이선스</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>다운로드 수</translation>
    </message>
    <message>
        <source>Models on the hub</source>
        <translation>허브의 모델</translation>
    </message>
    <message>
        <source>OPUS-MT models from the University of Helsinki, published on the Hugging Face hub. Nothing is downloaded until you click Download.</source>
        <translation>헬싱키 대학교의 OPUS-MT 모델로, Hugging Face 허브에 공개되어 있습니다. 다운로드를 누르기 전에는 아무것도 내려받지 않습니다.</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>다운로드</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>다운로드 취소</translation>
    </message>
    <message>
        <source>Searching for “%1”…</source>
        <translation>“%1” 검색 중…</translation>
    </message>
    <message>
        <source>Could not search the hub: %1</source>
        <translation>허브를 검색할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Nothing found for “%1”.</source>
        <translation>“%1”에 대한 결과가 없습니다.</translation>
    </message>
    <message>
        <source>≈ %1</source>
        <translation>약 %1</translation>
    </message>
    <message>
        <source>Connecting to the hub for %1…</source>
        <translation>%1을(를) 받으려고 허브에 연결하는 중…</translation>
    </message>
    <message>
        <source>Converting %1 for Glosa… %2%</source>
        <translation>%1을(를) Glosa용으로 변환하는 중… %2%</translation>
    </message>
    <message>
        <source>Downloading %1: %2 of %3</source>
        <translation>%1 다운로드 중: %3 중 %2</translation>
    </message>
    <message>
        <source>, %1/s</source>
        <translation>, 초당 %1</translation>
    </message>
    <message>
        <source>Download cancelled. Downloading it again resumes where it stopped.</source>
        <translation>다운로드를 취소했습니다. 다시 다운로드하면 멈춘 곳부터 이어서 받습니다.</translation>
    </message>
    <message>
        <source>Could not install the model: %1</source>
        <translation>모델을 설치할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Installed %1. It is now the model for its languages.</source>
        <translation>%1을(를) 설치했습니다. 이제 이 언어 쌍에 쓰는 모델입니다.</translation>
    </message>
    <message>
        <source>Models found: %1. Choose one and click Download.</source>
        <translation>찾은 모델: %1개. 하나를 골라 다운로드를 누르세요.</translation>
    </message>
    <message>
        <source>, %1 s left</source>
        <translation>, %1초 남음</translation>
    </message>
    <message>
        <source>, about %1 min left</source>
        <translation>, 약 %1분 남음</translation>
    </message>
    <message>
        <source>On this computer</source>
        <translation>이 컴퓨터에 있음</translation>
    </message>
    <message>
        <source>Importing %1 from this computer…</source>
        <translation>이 컴퓨터에서 %1을(를) 가져오는 중…</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>가져오기</translation>
    </message>
</context>
<context>
    <name>glosa::HeadGridWidget</name>
    <message>
        <source>Head %1</source>
        <translation>헤드 %1</translation>
    </message>
</context>
<context>
    <name>glosa::HeatmapWidget</name>
    <message>
        <source>The attention matrix appears here after a translation.</source>
        <translation>번역하고 나면 여기에 어텐션 행렬이 표시됩니다.</translation>
    </message>
    <message>
        <source>%1 → %2: %3</source>
        <translation>%1 → %2: %3</translation>
    </message>
</context>
<context>
    <name>glosa::HistoryController</name>
    <message>
        <source>Recorded with %1 version %2; version %3 is installed now.</source>
        <translation>%1 버전 %2(으)로 기록되었습니다. 현재 설치된 버전은 %3입니다.</translation>
    </message>
    <message>
        <source>From the history (%1).</source>
        <translation>기록에서 불러옴 (%1).</translation>
    </message>
    <message>
        <source>No captioning model is installed.</source>
        <translation>캡션 모델이 설치되어 있지 않습니다.</translation>
    </message>
    <message>
        <source>The image %1 is gone.</source>
        <translation>이미지 %1이(가) 더 이상 없습니다.</translation>
    </message>
    <message>
        <source>No translation model is installed.</source>
        <translation>번역 모델이 설치되어 있지 않습니다.</translation>
    </message>
    <message>
        <source>The model %1 is no longer installed; the recorded result is shown as it was.</source>
        <translation>%1 모델이 더 이상 설치되어 있지 않습니다. 기록된 결과를 그때 그대로 표시합니다.</translation>
    </message>
    <message>
        <source>Your edit was not saved to the history: %1</source>
        <translation>수정한 내용을 기록에 저장하지 못했습니다: %1</translation>
    </message>
    <message>
        <source>An earlier version of this translation could not be replaced in the history: %1</source>
        <translation>기록에서 이 번역의 이전 버전을 바꾸지 못했습니다: %1</translation>
    </message>
</context>
<context>
    <name>glosa::HistoryModel</name>
    <message>
        <source>Document</source>
        <translation>문서</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>번역</translation>
    </message>
    <message>
        <source>Caption</source>
        <translation>캡션</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>(image)</source>
        <translation>(이미지)</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>평가</translation>
    </message>
</context>
<context>
    <name>glosa::HistoryRecorder</name>
    <message>
        <source>Not saved to the history:</source>
        <translation>기록에 저장하지 못했습니다:</translation>
    </message>
    <message>
        <source>Old entries could not be removed:</source>
        <translation>오래된 항목을 제거할 수 없습니다:</translation>
    </message>
    <message numerus="yes">
        <source>%n entry(s) could not be saved to the history before it was closed.</source>
        <translation>
            <numerusform>기록을 닫기 전에 항목 %n개를 저장하지 못했습니다.</numerusform>
        </translation>
    </message>
    <message>
        <source>The history has been locked by another program for a long time; the oldest unsaved entry was dropped.</source>
        <translation>다른 프로그램이 기록을 오랫동안 잠그고 있어, 저장되지 않은 가장 오래된 항목을 버렸습니다.</translation>
    </message>
    <message>
        <source>Not saved to the history yet: %1 Glosa will save it when the history is free.</source>
        <translation>아직 기록에 저장되지 않았습니다: %1 기록을 사용할 수 있게 되면 Glosa가 저장합니다.</translation>
    </message>
    <message>
        <source>The history could not be repaired:</source>
        <translation>기록을 복구할 수 없습니다:</translation>
    </message>
</context>
<context>
    <name>glosa::HistoryView</name>
    <message>
        <source>Documents</source>
        <translation>문서</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>입력</translation>
    </message>
    <message>
        <source>Column %1</source>
        <translation>%1열</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>출력</translation>
    </message>
    <message>
        <source>score %1</source>
        <translation>점수 %1</translation>
    </message>
    <message>
        <source>Search the history (Ctrl+F)</source>
        <translation>기록 검색 (Ctrl+F)</translation>
    </message>
    <message>
        <source>Search the history</source>
        <translation>기록 검색</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>모든 종류</translation>
    </message>
    <message>
        <source>Translations</source>
        <translation>번역</translation>
    </message>
    <message>
        <source>Captions</source>
        <translation>캡션</translation>
    </message>
    <message>
        <source>Comparisons</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>종류</translation>
    </message>
    <message>
        <source>All models</source>
        <translation>모든 모델</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>Any time</source>
        <translation>전체 기간</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>오늘</translation>
    </message>
    <message>
        <source>Past 7 days</source>
        <translation>지난 7일</translation>
    </message>
    <message>
        <source>Past 30 days</source>
        <translation>지난 30일</translation>
    </message>
    <message>
        <source>Past year</source>
        <translation>지난 1년</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>기간</translation>
    </message>
    <message>
        <source>Starred</source>
        <translation>별표한 항목</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>내보내기(&amp;E)…</translation>
    </message>
    <message>
        <source>Clear all…</source>
        <translation>모두 지우기…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>설정…</translation>
    </message>
    <message>
        <source>Recording and how long entries are kept</source>
        <translation>기록 여부와 항목 보관 기간</translation>
    </message>
    <message>
        <source>History entries</source>
        <translation>기록 항목</translation>
    </message>
    <message>
        <source>Entry details</source>
        <translation>항목 세부 정보</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>열기(&amp;O)</translation>
    </message>
    <message>
        <source>Show this entry in its view, with its model and settings</source>
        <translation>이 항목을 해당 보기에서 모델 및 설정과 함께 표시합니다</translation>
    </message>
    <message>
        <source>&amp;Re-run with current settings</source>
        <translation>현재 설정으로 다시 실행(&amp;R)</translation>
    </message>
    <message>
        <source>Translate the input again with the current model and settings, and show both results side by side</source>
        <translation>현재 모델과 설정으로 입력을 다시 번역하고 두 결과를 나란히 표시합니다</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>삭제(&amp;D)</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>열기</translation>
    </message>
    <message>
        <source>Re-run with current settings</source>
        <translation>현재 설정으로 다시 실행</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>삭제</translation>
    </message>
    <message numerus="yes">
        <source>%n entry(s)</source>
        <translation>
            <numerusform>항목 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>Search results</source>
        <translation>검색 결과</translation>
    </message>
    <message>
        <source>The history could not be opened, so nothing will be recorded until Glosa restarts.</source>
        <translation>기록을 열 수 없어 Glosa를 다시 시작할 때까지 아무것도 기록되지 않습니다.</translation>
    </message>
    <message>
        <source>The history file was damaged and has been set aside as %1. A new, empty history was started.</source>
        <translation>기록 파일이 손상되어 %1(으)로 따로 보관했습니다. 비어 있는 새 기록을 시작했습니다.</translation>
    </message>
    <message>
        <source>The history could not be read:</source>
        <translation>기록을 읽을 수 없습니다:</translation>
    </message>
    <message>
        <source>The entry could not be read:</source>
        <translation>항목을 읽을 수 없습니다:</translation>
    </message>
    <message>
        <source>★ Starred</source>
        <translation>★ 별표됨</translation>
    </message>
    <message>
        <source>☆ Star</source>
        <translation>☆ 별표</translation>
    </message>
    <message>
        <source>Remove star</source>
        <translation>별표 제거</translation>
    </message>
    <message>
        <source>Star</source>
        <translation>별표</translation>
    </message>
    <message>
        <source>Then</source>
        <translation>이전</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>현재</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>실행 중…</translation>
    </message>
    <message>
        <source>The star could not be saved:</source>
        <translation>별표를 저장할 수 없습니다:</translation>
    </message>
    <message>
        <source>The entry could not be deleted:</source>
        <translation>항목을 삭제할 수 없습니다:</translation>
    </message>
    <message>
        <source>Clear the history</source>
        <translation>기록 지우기</translation>
    </message>
    <message>
        <source>Remove every entry from the history, starred ones too? This cannot be undone.</source>
        <translation>별표한 항목을 포함해 기록의 모든 항목을 제거하시겠습니까? 이 작업은 되돌릴 수 없습니다.</translation>
    </message>
    <message>
        <source>The history could not be cleared:</source>
        <translation>기록을 지울 수 없습니다:</translation>
    </message>
    <message numerus="yes">
        <source>Removed %n history entry(s).</source>
        <translation>
            <numerusform>기록 항목 %n개를 제거했습니다.</numerusform>
        </translation>
    </message>
    <message>
        <source>JSON Lines, everything (*.jsonl)</source>
        <translation>JSON Lines, 전체 (*.jsonl)</translation>
    </message>
    <message>
        <source>CSV, best outputs (*.csv)</source>
        <translation>CSV, 최상위 출력 (*.csv)</translation>
    </message>
    <message>
        <source>TMX translation memory, translations only (*.tmx)</source>
        <translation>TMX 번역 메모리, 번역만 (*.tmx)</translation>
    </message>
    <message>
        <source>Export history</source>
        <translation>기록 내보내기</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n entry(s) to %1</source>
        <translation>
            <numerusform>항목 %n개를 %1(으)로 내보냈습니다</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1에 쓸 수 없습니다: %2</translation>
    </message>
    <message>
        <source>The history could not be exported.</source>
        <translation>기록을 내보낼 수 없습니다.</translation>
    </message>
    <message>
        <source>History settings</source>
        <translation>기록 설정</translation>
    </message>
    <message>
        <source>Record translations, captions and comparisons</source>
        <translation>번역, 캡션, 비교 기록</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>제한 없음</translation>
    </message>
    <message>
        <source> days</source>
        <translation>일</translation>
    </message>
    <message>
        <source>Starred entries are always kept. Older entries beyond the limits are removed now and whenever a new one is recorded.</source>
        <translation>별표한 항목은 항상 보관됩니다. 한도를 넘는 오래된 항목은 지금, 그리고 새 항목이 기록될 때마다 제거됩니다.</translation>
    </message>
    <message>
        <source>Keep at most:</source>
        <translation>최대 보관 개수:</translation>
    </message>
    <message>
        <source>Remove entries older than:</source>
        <translation>다음보다 오래된 항목 제거:</translation>
    </message>
    <message numerus="yes">
        <source>Removed %n old history entry(s).</source>
        <translation>
            <numerusform>오래된 기록 항목 %n개를 제거했습니다.</numerusform>
        </translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>Keep the history file under:</source>
        <translation>기록 파일 크기 상한:</translation>
    </message>
    <message>
        <source>Your version</source>
        <translation>내 버전</translation>
    </message>
    <message>
        <source>Re&amp;pair…</source>
        <translation>복구(&amp;P)…</translation>
    </message>
    <message>
        <source>Rebuild the history file from the entries that can be read, keeping the damaged file beside it</source>
        <translation>읽을 수 있는 항목으로 기록 파일을 다시 만들고, 손상된 파일은 옆에 보관합니다</translation>
    </message>
    <message numerus="yes">
        <source>The history file was rebuilt. The damaged one is kept as %1; %n entry(s) that could be read were carried over, %2 could not be.</source>
        <translation>
            <numerusform>기록 파일을 다시 만들었습니다. 손상된 파일은 %1(으)로 보관했습니다. 읽을 수 있는 항목 %n개를 옮겼고, %2개는 옮기지 못했습니다.</numerusform>
        </translation>
    </message>
    <message>
        <source>The history file %1 is damaged in places: the entries stored there cannot be read, the others work as usual. Repair rebuilds the file from them and keeps the old one.</source>
        <translation>기록 파일 %1의 일부가 손상되었습니다. 그 부분에 저장된 항목은 읽을 수 없고, 나머지는 평소처럼 사용할 수 있습니다. 복구하면 나머지 항목으로 파일을 다시 만들고 이전 파일은 보관합니다.</translation>
    </message>
    <message numerus="yes">
        <source>%n history entry(s) cannot be read, the file being damaged where they are stored: %1 (%2). The others work as usual; Repair rebuilds the file from them and keeps the old one.</source>
        <translation>
            <numerusform>기록 항목 %n개가 저장된 곳의 파일이 손상되어 읽을 수 없습니다: %1 (%2). 나머지는 평소처럼 사용할 수 있습니다. 복구하면 나머지 항목으로 파일을 다시 만들고 이전 파일은 보관합니다.</numerusform>
        </translation>
    </message>
    <message>
        <source>Repair the history file</source>
        <translation>기록 파일 복구</translation>
    </message>
    <message>
        <source>Rebuild the history file from the entries that can be read? The damaged file is kept beside it, and the entries stored in its damaged places cannot be brought back. Close other Glosa windows and glosa-cli first.</source>
        <translation>읽을 수 있는 항목으로 기록 파일을 다시 만드시겠습니까? 손상된 파일은 옆에 보관되며, 손상된 부분에 저장된 항목은 되살릴 수 없습니다. 먼저 다른 Glosa 창과 glosa-cli를 닫으십시오.</translation>
    </message>
    <message numerus="yes">
        <source>%n history entry(s) could not be exported, the file being damaged where they are stored: %1 (%2). Everything else was exported; Repair rebuilds the file from it and keeps the old one.</source>
        <translation>
            <numerusform>기록 항목 %n개가 저장된 곳의 파일이 손상되어 내보내지 못했습니다: %1 (%2). 나머지는 모두 내보냈습니다. 복구하면 나머지 항목으로 파일을 다시 만들고 이전 파일은 보관합니다.</numerusform>
        </translation>
    </message>
    <message>
        <source>Test set</source>
        <translation>테스트 세트</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n sentence(s))</source>
        <translation>
            <numerusform>%1 (%n개 문장)</numerusform>
        </translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>점수</translation>
    </message>
    <message>
        <source>BLEU</source>
        <translation>BLEU</translation>
    </message>
    <message>
        <source>chrF2</source>
        <translation>chrF2</translation>
    </message>
    <message>
        <source>Brevity penalty</source>
        <translation>짧은 번역 패널티</translation>
    </message>
    <message>
        <source>Decoding</source>
        <translation>디코딩</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>시간</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1초</translation>
    </message>
    <message>
        <source>BLEU by source-sentence length (words)</source>
        <translation>원문 문장 길이별 BLEU (단어)</translation>
    </message>
    <message>
        <source>Words</source>
        <translation>단어 수</translation>
    </message>
    <message>
        <source>Sentences</source>
        <translation>문장 수</translation>
    </message>
    <message>
        <source>Where %1 and %2 differ most (sentence chrF2)</source>
        <translation>%1와(과) %2의 차이가 가장 큰 문장 (문장 chrF2)</translation>
    </message>
    <message>
        <source>Reference: %1</source>
        <translation>참조 번역: %1</translation>
    </message>
    <message>
        <source>Evaluations</source>
        <translation>평가</translation>
    </message>
    <message>
        <source>Save the entries the list shows as JSON Lines, CSV or TMX</source>
        <translation>목록에 보이는 항목을 JSON Lines, CSV 또는 TMX로 저장합니다</translation>
    </message>
    <message>
        <source>Underlined: “%1”, the words you chose among the candidates; the rest is the model&apos;s.</source>
        <translation>밑줄: “%1”, 후보 중에서 직접 고른 단어입니다. 나머지는 모델의 번역입니다.</translation>
    </message>
</context>
<context>
    <name>glosa::KeepTermsDialog</name>
    <message>
        <source>Do not translate</source>
        <translation>번역하지 않을 용어</translation>
    </message>
    <message>
        <source>Terms that every translation copies as they are, such as product and people&apos;s names, one a line (whole words, matching case):</source>
        <translation>모든 번역에서 그대로 복사할 용어(제품명, 인명 등), 한 줄에 하나씩(단어 전체, 대소문자 구분):</translation>
    </message>
    <message>
        <source>Terms not to translate</source>
        <translation>번역하지 않을 용어</translation>
    </message>
</context>
<context>
    <name>glosa::Languages</name>
    <message>
        <source>Image</source>
        <translation>이미지</translation>
    </message>
    <message>
        <source>en</source>
        <comment>the code (ISO 639-1) of the language this translation is in</comment>
        <translation>ko</translation>
    </message>
</context>
<context>
    <name>glosa::LengthChart</name>
    <message>
        <source>BLEU by source-sentence length appears here after an evaluation.</source>
        <translation>평가 후 원문 문장 길이별 BLEU가 여기에 표시됩니다.</translation>
    </message>
    <message numerus="yes">
        <source>%n sentence(s)</source>
        <translation>
            <numerusform>문장 %n개</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>glosa::MainMenus</name>
    <message>
        <source>No recent files</source>
        <translation>최근 파일 없음</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>열기(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>최근 파일 열기(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save translation…</source>
        <translation>번역 저장(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Import model…</source>
        <translation>모델 가져오기(&amp;I)…</translation>
    </message>
    <message>
        <source>&amp;Get models…</source>
        <translation>모델 받기(&amp;G)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>끝내기(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>편집(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Copy translation</source>
        <translation>번역 복사(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Paste as source</source>
        <translation>원문으로 붙여넣기(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>찾기(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Translate</source>
        <translation>번역(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>취소(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Swap languages</source>
        <translation>언어 바꾸기(&amp;S)</translation>
    </message>
    <message>
        <source>C&amp;ompare strategies</source>
        <translation>전략 비교(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Evaluate models…</source>
        <translation>모델 평가(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <source>Translate</source>
        <translation>번역</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>Caption</source>
        <translation>캡션</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>문서</translation>
    </message>
    <message>
        <source>History</source>
        <translation>기록</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Models…</source>
        <translation>모델(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;About Glosa</source>
        <translation>Glosa 정보(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Qt 정보(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>설정(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>언어(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;History…</source>
        <translation>기록(&amp;H)…</translation>
    </message>
    <message>
        <source>&amp;Do not translate…</source>
        <translation>번역하지 않을 용어(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Arithmetic</source>
        <translation>연산 방식(&amp;A)</translation>
    </message>
    <message>
        <source>A&amp;ppearance</source>
        <translation>모양(&amp;P)</translation>
    </message>
    <message>
        <source>As the system has it</source>
        <translation>시스템 설정대로</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>밝게</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>어둡게</translation>
    </message>
    <message>
        <source>Automatic: int8 where the model stores it</source>
        <translation>자동: 모델에 int8 가중치가 있으면 int8</translation>
    </message>
    <message>
        <source>Float32: the reference, slower</source>
        <translation>Float32: 기준 방식, 더 느림</translation>
    </message>
    <message>
        <source>Int8: about 1.5-3x faster, nearly always the same words</source>
        <translation>Int8: 약 1.5~3배 빠름, 거의 항상 같은 단어</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>시스템 기본값</translation>
    </message>
</context>
<context>
    <name>glosa::MainWindow</name>
    <message>
        <source>Glosa</source>
        <translation>Glosa</translation>
    </message>
    <message>
        <source>Translate</source>
        <translation>번역</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>Caption</source>
        <translation>캡션</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>문서</translation>
    </message>
    <message>
        <source>History</source>
        <translation>기록</translation>
    </message>
    <message>
        <source>Find in the texts (Enter: next)</source>
        <translation>텍스트에서 찾기 (Enter: 다음)</translation>
    </message>
    <message>
        <source>Find</source>
        <translation>찾기</translation>
    </message>
    <message>
        <source>Loaded %1</source>
        <translation>%1을(를) 불러왔습니다</translation>
    </message>
    <message>
        <source>Open text</source>
        <translation>텍스트 열기</translation>
    </message>
    <message>
        <source>Text files (*.txt *.md);;All files (*)</source>
        <translation>텍스트 파일 (*.txt *.md);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Could not open %1: %2</source>
        <translation>%1을(를) 열 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Import model</source>
        <translation>모델 가져오기</translation>
    </message>
    <message>
        <source>Imported %1</source>
        <translation>%1을(를) 가져왔습니다</translation>
    </message>
    <message>
        <source>Save translation</source>
        <translation>번역 저장</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>텍스트 파일 (*.txt);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1을(를) 저장했습니다</translation>
    </message>
    <message>
        <source>Import model (a Glosa package or a Hugging Face MarianMT folder)</source>
        <translation>모델 가져오기 (Glosa 패키지 또는 Hugging Face MarianMT 폴더)</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>%1 가져오는 중…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Remove model</source>
        <translation>모델 제거</translation>
    </message>
    <message>
        <source>Remove the imported model %1 from this computer?</source>
        <translation>가져온 모델 %1을(를) 이 컴퓨터에서 제거할까요?</translation>
    </message>
    <message>
        <source>Removed %1</source>
        <translation>%1 제거됨</translation>
    </message>
    <message>
        <source>Use as default</source>
        <translation>기본값으로 사용</translation>
    </message>
    <message>
        <source>%1 is now the default for its direction</source>
        <translation>%1이(가) 이제 이 방향의 기본 모델입니다</translation>
    </message>
    <message>
        <source>Could not save settings: %1</source>
        <translation>설정을 저장하지 못했습니다: %1</translation>
    </message>
    <message>
        <source>Installed %1</source>
        <translation>%1 설치됨</translation>
    </message>
    <message>
        <source>The settings could not be read (%1) and start from their defaults.</source>
        <translation>설정을 읽을 수 없어(%1) 기본값으로 시작합니다.</translation>
    </message>
    <message>
        <source>The settings could not be read (%1) and start from their defaults; the old file is kept as %2.</source>
        <translation>설정을 읽을 수 없어(%1) 기본값으로 시작합니다. 이전 파일은 %2(으)로 보관했습니다.</translation>
    </message>
</context>
<context>
    <name>glosa::ModelBar</name>
    <message>
        <source>Translate captions &amp;with:</source>
        <translation>캡션 번역 모델(&amp;W):</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>모델(&amp;M):</translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation>%1 (기본값)</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>준비됨</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>불러오는 중…</translation>
    </message>
    <message>
        <source>Could not load the model</source>
        <translation>모델을 불러올 수 없습니다</translation>
    </message>
    <message>
        <source>No %1 → %2 model is installed</source>
        <translation>%1 → %2 모델이 설치되어 있지 않습니다</translation>
    </message>
    <message>
        <source>Swap languages (Ctrl+Shift+S)</source>
        <translation>언어 바꾸기 (Ctrl+Shift+S)</translation>
    </message>
    <message>
        <source>A stronger %1 → %2 model is available from OPUS-MT (≈ %3)</source>
        <translation>OPUS-MT에서 더 나은 %1 → %2 모델을 받을 수 있습니다 (약 %3)</translation>
    </message>
    <message>
        <source>Opens Get models… with %1 chosen; nothing is downloaded until you click Download</source>
        <translation>%1을(를) 고른 채로 모델 받기…를 엽니다. 다운로드를 누르기 전에는 아무것도 내려받지 않습니다</translation>
    </message>
    <message>
        <source>Translation model</source>
        <translation>번역 모델</translation>
    </message>
    <message>
        <source>Swap languages</source>
        <translation>언어 바꾸기</translation>
    </message>
</context>
<context>
    <name>glosa::ModelChoice</name>
    <message>
        <source>No captioning model is installed. Install a captioning package (Help ▸ Models…) to caption images.</source>
        <translation>캡션 모델이 설치되어 있지 않습니다. 이미지에 캡션을 달려면 캡션 패키지를 설치하십시오 (도움말 ▸ 모델…).</translation>
    </message>
    <message>
        <source>No translation model is installed. Use File ▸ Import model… to add a model package.</source>
        <translation>번역 모델이 설치되어 있지 않습니다. 파일 ▸ 모델 가져오기…로 모델 패키지를 추가하십시오.</translation>
    </message>
    <message>
        <source>The “%1” model family is not installed, so %2 cannot run.</source>
        <translation>“%1” 모델 계열이 설치되어 있지 않아 %2을(를) 실행할 수 없습니다.</translation>
    </message>
    <message>
        <source>No usable translation model is installed (see Help ▸ Models… for why).</source>
        <translation>사용할 수 있는 번역 모델이 설치되어 있지 않습니다 (이유는 도움말 ▸ 모델…에서 확인하십시오).</translation>
    </message>
</context>
<context>
    <name>glosa::ModelImport</name>
    <message>
        <source>%1 is not a model folder. Import takes a Glosa package (a folder with model.json and its weights) or a Hugging Face MarianMT folder (config.json, the weights in model.safetensors or pytorch_model.bin, source.spm, target.spm and vocab.json).</source>
        <translation>%1은(는) 모델 폴더가 아닙니다. 가져오기는 Glosa 패키지(model.json과 가중치가 있는 폴더) 또는 Hugging Face MarianMT 폴더(config.json, model.safetensors 또는 pytorch_model.bin의 가중치, source.spm, target.spm, vocab.json)를 받습니다.</translation>
    </message>
</context>
<context>
    <name>glosa::ModelNames</name>
    <message>
        <source>English image captions (Show, Attend and Tell on MobileNetV2)</source>
        <translation>영어 이미지 캡션 (MobileNetV2 기반 Show, Attend and Tell)</translation>
    </message>
    <message>
        <source>English → Spanish (RNN, Bahdanau attention)</source>
        <translation>영어 → 스페인어 (RNN, Bahdanau 어텐션)</translation>
    </message>
    <message>
        <source>English → Spanish (RNN, Luong attention)</source>
        <translation>영어 → 스페인어 (RNN, Luong 어텐션)</translation>
    </message>
    <message>
        <source>English → Spanish (RNN, Luong attention, general domain)</source>
        <translation>영어 → 스페인어 (RNN, Luong 어텐션, 일반 분야)</translation>
    </message>
    <message>
        <source>English → Spanish (RNN without attention)</source>
        <translation>영어 → 스페인어 (어텐션 없는 RNN)</translation>
    </message>
    <message>
        <source>English → Spanish (Transformer, Tatoeba)</source>
        <translation>영어 → 스페인어 (Transformer, Tatoeba)</translation>
    </message>
    <message>
        <source>Spanish → English (Transformer, Tatoeba)</source>
        <translation>스페인어 → 영어 (Transformer, Tatoeba)</translation>
    </message>
    <message>
        <source>English → Spanish (Transformer, general domain)</source>
        <translation>영어 → 스페인어 (Transformer, 일반 분야)</translation>
    </message>
    <message>
        <source>Spanish → English (Transformer, general domain)</source>
        <translation>스페인어 → 영어 (Transformer, 일반 분야)</translation>
    </message>
    <message>
        <source>English → German (Transformer, Tatoeba)</source>
        <translation>영어 → 독일어 (Transformer, Tatoeba)</translation>
    </message>
</context>
<context>
    <name>glosa::ModelsDialog</name>
    <message>
        <source>Models</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>Languages</source>
        <translation>언어</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>아키텍처</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>점수</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>크기</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>라이선스</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>폴더</translation>
    </message>
    <message>
        <source>Installed models</source>
        <translation>설치된 모델</translation>
    </message>
    <message>
        <source>Plugin</source>
        <translation>플러그인</translation>
    </message>
    <message>
        <source>Architectures</source>
        <translation>아키텍처</translation>
    </message>
    <message>
        <source>File</source>
        <translation>파일</translation>
    </message>
    <message>
        <source>Plugins</source>
        <translation>플러그인</translation>
    </message>
    <message>
        <source>Import model…</source>
        <translation>모델 가져오기…</translation>
    </message>
    <message>
        <source>Broken: %1</source>
        <translation>손상됨: %1</translation>
    </message>
    <message>
        <source>Hidden by %1</source>
        <translation>%1에 가려짐</translation>
    </message>
    <message>
        <source>No plugin for “%1” is installed</source>
        <translation>“%1”용 플러그인이 설치되어 있지 않습니다</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>준비됨</translation>
    </message>
    <message>
        <source>Image → %1</source>
        <translation>이미지 → %1</translation>
    </message>
    <message>
        <source>Loaded</source>
        <translation>불러옴</translation>
    </message>
    <message>
        <source>Models are looked for in: %1</source>
        <translation>모델을 찾는 위치: %1</translation>
    </message>
    <message>
        <source>(no folder exists yet)</source>
        <translation>(아직 폴더가 없습니다)</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>출처</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>제거</translation>
    </message>
    <message>
        <source>Use as default for this direction</source>
        <translation>이 방향의 기본값으로 사용</translation>
    </message>
    <message>
        <source>Bundled or on GLOSA_MODEL_PATH</source>
        <translation>기본 포함 또는 GLOSA_MODEL_PATH</translation>
    </message>
    <message>
        <source>Imported</source>
        <translation>가져옴</translation>
    </message>
    <message>
        <source>Imported from %1</source>
        <translation>%1에서 가져옴</translation>
    </message>
    <message>
        <source>%1 (MarianMT)</source>
        <translation>%1 (MarianMT)</translation>
    </message>
    <message>
        <source>Get models…</source>
        <translation>모델 받기…</translation>
    </message>
    <message>
        <source>Search and download OPUS-MT models from the Hugging Face hub</source>
        <translation>Hugging Face 허브에서 OPUS-MT 모델을 검색하고 다운로드합니다</translation>
    </message>
    <message>
        <source>Ready · the default for its direction</source>
        <translation>준비됨 · 이 방향의 기본 모델</translation>
    </message>
</context>
<context>
    <name>glosa::ProbabilityChart</name>
    <message>
        <source>Click a word in a column to see the candidates the model weighed at that step.</source>
        <translation>열에서 단어를 클릭하면 그 단계에서 모델이 고려한 후보가 표시됩니다.</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>%1단계</translation>
    </message>
    <message>
        <source>Click to decode again with “%1” forced here</source>
        <translation>클릭하면 여기에 “%1”을(를) 강제하여 다시 디코딩합니다</translation>
    </message>
    <message>
        <source>Piece: %1</source>
        <translation>조각: %1</translation>
    </message>
    <message>
        <source>the model&apos;s probability</source>
        <translation>모델의 확률</translation>
    </message>
    <message>
        <source>after the decoding settings</source>
        <translation>디코딩 설정 적용 후</translation>
    </message>
</context>
<context>
    <name>glosa::SourcePane</name>
    <message>
        <source>&amp;Translate</source>
        <translation>번역(&amp;T)</translation>
    </message>
    <message>
        <source>Translate now (Ctrl+Enter)</source>
        <translation>지금 번역 (Ctrl+Enter)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Translate as I type</source>
        <translation>입력하는 동안 번역</translation>
    </message>
    <message>
        <source>Type or paste text to translate…</source>
        <translation>번역할 텍스트를 입력하거나 붙여넣으십시오…</translation>
    </message>
    <message>
        <source>Source text</source>
        <translation>원문 텍스트</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>원문</translation>
    </message>
    <message numerus="yes">
        <source>%n character(s)</source>
        <translation>
            <numerusform>%n자</numerusform>
        </translation>
    </message>
    <message>
        <source>〰 Wavy underline: a word the translation may have left out. Point at it to see why.</source>
        <translation>〰 물결 밑줄: 번역에서 빠졌을 수 있는 단어입니다. 가리키면 이유가 보입니다.</translation>
    </message>
</context>
<context>
    <name>glosa::Steering</name>
    <message>
        <source>prefix: «%1» + end</source>
        <translation>접두사: «%1» + 끝</translation>
    </message>
    <message>
        <source>prefix: «%1»</source>
        <translation>접두사: «%1»</translation>
    </message>
    <message>
        <source>sentence %1 · %2</source>
        <translation>문장 %1 · %2</translation>
    </message>
</context>
<context>
    <name>glosa::SteeringBar</name>
    <message>
        <source>Back to the original</source>
        <translation>원래 번역으로</translation>
    </message>
    <message>
        <source>Show the translation this one was steered from</source>
        <translation>이 번역이 바뀌기 전의 번역 보기</translation>
    </message>
</context>
<context>
    <name>glosa::TestSets</name>
    <message>
        <source>%1 (bundled)</source>
        <translation>%1 (내장)</translation>
    </message>
</context>
<context>
    <name>glosa::TranslatePresenter</name>
    <message>
        <source>Could not save %1: %2</source>
        <translation>%1을(를) 저장하지 못했습니다: %2</translation>
    </message>
</context>
<context>
    <name>glosa::TranslateView</name>
    <message>
        <source>Shade by confidence</source>
        <translation>신뢰도에 따라 음영 표시</translation>
    </message>
    <message>
        <source>Underline target words the model was unsure about (darker: less probable)</source>
        <translation>모델이 확신하지 못한 번역 단어에 밑줄을 긋습니다 (진할수록 확률이 낮음)</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>복사</translation>
    </message>
    <message>
        <source>Copy the translation to the clipboard</source>
        <translation>번역을 클립보드에 복사합니다</translation>
    </message>
    <message>
        <source>The translation appears here. Hover a word to see which source words it came from.</source>
        <translation>번역이 여기에 표시됩니다. 단어 위에 마우스를 올리면 어느 원문 단어에서 왔는지 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>번역</translation>
    </message>
    <message>
        <source>Alternative translations</source>
        <translation>대체 번역</translation>
    </message>
    <message>
        <source>Decoding</source>
        <translation>디코딩</translation>
    </message>
    <message>
        <source>Alternative %1</source>
        <translation>대안 %1</translation>
    </message>
    <message>
        <source>Translating…</source>
        <translation>번역 중…</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>취소되었습니다.</translation>
    </message>
    <message numerus="yes">
        <source>%n token(s) in %1 ms</source>
        <translation>
            <numerusform>토큰 %n개, %1 ms</numerusform>
        </translation>
    </message>
    <message>
        <source>Translation failed: %1</source>
        <translation>번역 실패: %1</translation>
    </message>
    <message>
        <source>Your edited translation is kept: press Translate to replace it.</source>
        <translation>수정한 번역이 유지됩니다. 바꾸려면 번역을 누르세요.</translation>
    </message>
    <message>
        <source>Edited: your version is kept in the history next to the model&apos;s.</source>
        <translation>수정됨: 내 버전이 모델의 번역과 함께 기록에 저장됩니다.</translation>
    </message>
    <message>
        <source>Replace your edits?</source>
        <translation>수정한 내용을 바꿀까요?</translation>
    </message>
    <message>
        <source>The translation has your edits. Translate again and replace them with the model&apos;s translation?</source>
        <translation>번역에 수정한 내용이 있습니다. 다시 번역하여 모델의 번역으로 바꿀까요?</translation>
    </message>
    <message>
        <source>Translated again with your choice forced.</source>
        <translation>선택을 강제하여 다시 번역했습니다.</translation>
    </message>
    <message>
        <source>Translating with your choice…</source>
        <translation>선택한 단어로 번역 중…</translation>
    </message>
    <message>
        <source>This text looks like %1, and the model translates from %2.</source>
        <translation>이 텍스트는 %1로 보이지만, 이 모델은 %2에서 번역합니다.</translation>
    </message>
    <message>
        <source>Translate %1 → %2</source>
        <translation>%1 → %2로 번역</translation>
    </message>
    <message>
        <source>Translate anyway</source>
        <translation>그래도 번역</translation>
    </message>
    <message>
        <source>Not translated: the text is not in %1.</source>
        <translation>번역하지 않음: 텍스트가 %1가 아닙니다.</translation>
    </message>
    <message>
        <source>Cancelled. The translation shown is of the text before your last changes.</source>
        <translation>취소했습니다. 표시된 번역은 마지막으로 고치기 전 텍스트의 번역입니다.</translation>
    </message>
    <message>
        <source>Translating: %1</source>
        <translation>번역 중: %1</translation>
    </message>
    <message>
        <source>Not in the translation: %1 (this model cannot protect numbers, URLs and code)</source>
        <translation>번역에 없음: %1 (이 모델은 숫자, URL, 코드를 보호할 수 없습니다)</translation>
    </message>
    <message>
        <source>Not in the translation: %1 (this model cannot protect numbers, URLs, code or the terms of your do-not-translate list)</source>
        <translation>번역에 없음: %1 (이 모델은 숫자, URL, 코드와 번역하지 않을 용어 목록의 용어를 보호할 수 없습니다)</translation>
    </message>
    <message>
        <source>┈ Dotted red underline: not a known %1 word. Click it to see what else the model weighed there.</source>
        <translation>┈ 빨간 점선 밑줄: 알려진 %1 단어가 아닙니다. 클릭하면 모델이 그 자리에서 고려한 다른 단어들을 볼 수 있습니다.</translation>
    </message>
</context>
<context>
    <name>glosa::documents::DocumentWorker</name>
    <message>
        <source>Open a document first.</source>
        <translation>먼저 문서를 여십시오.</translation>
    </message>
    <message>
        <source>%1 cannot translate.</source>
        <translation>%1은(는) 번역할 수 없습니다.</translation>
    </message>
    <message>
        <source>%1 is the document being translated; export the translation to another file.</source>
        <translation>%1은(는) 번역 중인 문서입니다. 번역을 다른 파일로 내보내세요.</translation>
    </message>
</context>
</TS>
